"use client";
// The admin's registry of MCP servers: list, register, edit, delete, discover.
// Secret values are write-only: the list shows their names as "set", an edit
// leaves a blank value unchanged, and "remove" deletes one.
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import type { McpServerView, McpTransport } from "@/lib/mcp/schemas";
import { createMcpServerAction } from "@/lib/actions/create-mcp-server";
import { updateMcpServerAction } from "@/lib/actions/update-mcp-server";
import { deleteMcpServerAction } from "@/lib/actions/delete-mcp-server";
import { discoverMcpToolsAction } from "@/lib/actions/discover-mcp-tools";
import type { ErrorBody } from "@/lib/errors";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input, Label, Select } from "@/components/ui/input";

export interface McpPrefill {
  name: string;
  transport: McpTransport;
  allowTools: string[];
}

interface SecretRow {
  name: string;
  value: string;
  /** Stored already: a blank value keeps it. */
  stored: boolean;
  remove: boolean;
}

interface Draft {
  /** The server being edited, or null for a new registration. */
  editing: string | null;
  name: string;
  description: string;
  type: "stdio" | "http";
  command: string;
  args: string;
  url: string;
  allowTools: string;
  /** Tools offered as guardrail checks ("<server>__<tool>" in an agent's guardrail), comma-separated. */
  guardrailTools: string;
  secrets: SecretRow[];
  receivesRunContext: boolean;
}

const EMPTY: Draft = { editing: null, name: "", description: "", type: "stdio", command: "", args: "", url: "", allowTools: "", guardrailTools: "", secrets: [], receivesRunContext: false };

function draftOf(server: McpServerView): Draft {
  const t = server.transport;
  return {
    editing: server.name,
    name: server.name,
    description: server.description,
    type: t.type,
    command: t.type === "stdio" ? t.command : "",
    args: t.type === "stdio" ? t.args.join(" ") : "",
    url: t.type === "http" ? t.url : "",
    allowTools: server.allowTools.join(", "),
    guardrailTools: server.guardrailTools.join(", "),
    secrets: server.secretNames.map((name) => ({ name, value: "", stored: true, remove: false })),
    receivesRunContext: server.receivesRunContext,
  };
}

function draftFromPrefill(prefill: McpPrefill): Draft {
  const t = prefill.transport;
  return { ...EMPTY, name: prefill.name, type: t.type, command: t.type === "stdio" ? t.command : "", args: t.type === "stdio" ? t.args.join(" ") : "", url: t.type === "http" ? t.url : "", allowTools: prefill.allowTools.join(", ") };
}

function transportOf(d: Draft): McpTransport {
  return d.type === "stdio" ? { type: "stdio", command: d.command.trim(), args: d.args.split(" ").filter(Boolean) } : { type: "http", url: d.url.trim() };
}

/** The write-only secrets patch: new values, removals; a stored secret left blank is not sent, so it is kept. */
function secretsOf(d: Draft): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const row of d.secrets) {
    if (!row.name.trim()) continue;
    if (row.remove) out[row.name.trim()] = null;
    else if (row.value !== "") out[row.name.trim()] = row.value;
  }
  return out;
}

function describeError(error: ErrorBody): string {
  return error.issues?.length ? `${error.message}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : error.message;
}

export function McpRegistry({ servers, prefill }: { servers: McpServerView[]; prefill: McpPrefill | null }) {
  const router = useRouter();
  const [draft, setDraft] = useState<Draft | null>(prefill ? draftFromPrefill(prefill) : null);
  const [message, setMessage] = useState<{ tone: "error" | "success" | "info"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const set = (patch: Partial<Draft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  function save(d: Draft) {
    startTransition(async () => {
      const allowTools = d.allowTools.split(/[\s,]+/).filter(Boolean);
      const guardrailTools = d.guardrailTools.split(/[\s,]+/).filter(Boolean);
      const result = d.editing
        ? await updateMcpServerAction({ name: d.editing, patch: { description: d.description, transport: transportOf(d), allowTools, guardrailTools, secrets: secretsOf(d), receivesRunContext: d.receivesRunContext } })
        : await createMcpServerAction({ name: d.name.trim(), description: d.description, transport: transportOf(d), allowTools, guardrailTools, secrets: secretsOf(d), receivesRunContext: d.receivesRunContext });
      if (!result.ok) {
        setMessage({ tone: "error", text: describeError(result.error) });
        return;
      }
      setMessage({ tone: "success", text: `${result.data.name} is ${d.editing ? "saved" : "registered"}.` });
      setDraft(null);
      router.refresh();
    });
  }

  function remove(name: string) {
    if (!window.confirm(`Remove the MCP server "${name}"? Graphs that use it will be refused at their next save or run.`)) return;
    startTransition(async () => {
      const result = await deleteMcpServerAction({ name });
      setMessage(result.ok ? { tone: "success", text: `${name} is removed.` } : { tone: "error", text: describeError(result.error) });
      router.refresh();
    });
  }

  function discover(name: string) {
    startTransition(async () => {
      const result = await discoverMcpToolsAction({ name });
      if (!result.ok) setMessage({ tone: "error", text: describeError(result.error) });
      else if (!result.data.ok) setMessage({ tone: "error", text: `Could not list tools: ${result.data.reason}` });
      else setMessage({ tone: "info", text: `${name} offers: ${result.data.tools.map((t) => t.name).join(", ") || "no tools"}` });
    });
  }

  return (
    <div className="space-y-4">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <Card>
        <table className="min-w-full divide-y divide-zinc-200 text-sm" aria-label="Registered MCP servers">
          <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
            <tr>
              <th className="px-4 py-3">Server</th>
              <th className="px-4 py-3">Transport</th>
              <th className="px-4 py-3">Allowed tools</th>
              <th className="px-4 py-3">Guardrail checks</th>
              <th className="px-4 py-3">Secrets</th>
              <th className="px-4 py-3">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {servers.map((s) => (
              <tr key={s.name} data-testid={`mcp-server-row-${s.name}`}>
                <td className="px-4 py-3">
                  <p className="font-mono font-medium text-zinc-900">{s.name}</p>
                  <p className="text-zinc-500">{s.description}</p>
                  {s.receivesRunContext ? <p className="text-xs text-amber-700">receives the run&apos;s context</p> : null}
                </td>
                <td className="px-4 py-3 font-mono text-xs">{s.transport.type === "stdio" ? [s.transport.command, ...s.transport.args].join(" ") : s.transport.url}</td>
                <td className="px-4 py-3 font-mono text-xs">{s.allowTools.join(", ") || "all"}</td>
                <td className="px-4 py-3 font-mono text-xs" data-testid={`mcp-guardrail-checks-${s.name}`}>{s.guardrailTools.map((tool) => `${s.name}__${tool}`).join(", ") || "none"}</td>
                <td className="px-4 py-3 text-xs">{s.secretNames.length ? s.secretNames.map((n) => `${n}: set`).join(", ") : "none"}</td>
                <td className="space-x-2 whitespace-nowrap px-4 py-3 text-right">
                  <Button variant="secondary" disabled={pending} onClick={() => discover(s.name)}>
                    Discover tools
                  </Button>
                  <Button variant="secondary" disabled={pending} onClick={() => setDraft(draftOf(s))}>
                    Edit
                  </Button>
                  <Button variant="secondary" disabled={pending} onClick={() => remove(s.name)}>
                    Delete
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {servers.length === 0 ? <p className="px-4 py-3 text-sm text-zinc-500">No MCP server is registered.</p> : null}
      </Card>
      {draft ? (
        <Card className="space-y-3 p-4">
          <form
            aria-label={draft.editing ? `Edit ${draft.editing}` : "Register an MCP server"}
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              save(draft);
            }}
          >
            <h2 className="text-sm font-semibold text-zinc-900">{draft.editing ? `Edit ${draft.editing}` : "Register an MCP server"}</h2>
            <div className="grid grid-cols-2 gap-3">
              <div>
                <Label htmlFor="mcp-name">Name</Label>
                <Input id="mcp-name" value={draft.name} disabled={draft.editing !== null} onChange={(e) => set({ name: e.target.value })} placeholder="lowercase, digits, _" />
              </div>
              <div>
                <Label htmlFor="mcp-description">Description</Label>
                <Input id="mcp-description" value={draft.description} onChange={(e) => set({ description: e.target.value })} />
              </div>
              <div>
                <Label htmlFor="mcp-type">Transport</Label>
                <Select id="mcp-type" value={draft.type} onChange={(e) => set({ type: e.target.value === "http" ? "http" : "stdio" })}>
                  <option value="stdio">stdio (command on the worker)</option>
                  <option value="http">Streamable HTTP (URL)</option>
                </Select>
              </div>
              {draft.type === "stdio" ? (
                <div>
                  <Label htmlFor="mcp-command">Command and arguments</Label>
                  <div className="flex gap-2">
                    <Input id="mcp-command" aria-label="Command" className="w-1/3" value={draft.command} onChange={(e) => set({ command: e.target.value })} placeholder="node" />
                    <Input aria-label="Arguments" value={draft.args} onChange={(e) => set({ args: e.target.value })} placeholder="--import tsx worker/tools/mcp-demo-server.ts" />
                  </div>
                </div>
              ) : (
                <div>
                  <Label htmlFor="mcp-url">URL</Label>
                  <Input id="mcp-url" value={draft.url} onChange={(e) => set({ url: e.target.value })} placeholder="https://mcp.example.com/mcp" />
                </div>
              )}
              <div className="col-span-2">
                <Label htmlFor="mcp-allow">Allowed tools (comma-separated; empty allows every tool)</Label>
                <Input id="mcp-allow" value={draft.allowTools} onChange={(e) => set({ allowTools: e.target.value })} />
              </div>
              <div className="col-span-2">
                <Label htmlFor="mcp-guardrail-tools">{"Tools offered as guardrail checks (comma-separated; each is called with { text } and answers { tripped, reason })"}</Label>
                <Input id="mcp-guardrail-tools" value={draft.guardrailTools} onChange={(e) => set({ guardrailTools: e.target.value })} />
              </div>
            </div>
            <fieldset className="space-y-2">
              <legend className="text-xs font-medium text-zinc-700">{draft.type === "stdio" ? "Environment variables (secret)" : "Request headers (secret)"}</legend>
              {draft.secrets.map((row, i) => (
                <div key={i} className="flex items-center gap-2">
                  <Input aria-label={`Secret ${i + 1} name`} className="w-1/3" value={row.name} disabled={row.stored} onChange={(e) => set({ secrets: draft.secrets.map((r, k) => (k === i ? { ...r, name: e.target.value } : r)) })} />
                  <Input
                    aria-label={`Secret ${i + 1} value`}
                    type="password"
                    autoComplete="off"
                    value={row.value}
                    placeholder={row.stored ? "set (leave blank to keep)" : "value"}
                    disabled={row.remove}
                    onChange={(e) => set({ secrets: draft.secrets.map((r, k) => (k === i ? { ...r, value: e.target.value } : r)) })}
                  />
                  {row.stored ? (
                    <label className="flex items-center gap-1 text-xs">
                      <input type="checkbox" checked={row.remove} onChange={(e) => set({ secrets: draft.secrets.map((r, k) => (k === i ? { ...r, remove: e.target.checked } : r)) })} />
                      remove
                    </label>
                  ) : null}
                </div>
              ))}
              <Button type="button" variant="secondary" onClick={() => set({ secrets: [...draft.secrets, { name: "", value: "", stored: false, remove: false }] })}>
                Add a secret
              </Button>
            </fieldset>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={draft.receivesRunContext} onChange={(e) => set({ receivesRunContext: e.target.checked })} />
              Send the run&apos;s context with each call (only for servers you trust with customer data)
            </label>
            <div className="flex gap-2">
              <Button type="submit" disabled={pending}>
                {draft.editing ? "Save" : "Register"}
              </Button>
              <Button type="button" variant="secondary" onClick={() => setDraft(null)}>
                Cancel
              </Button>
            </div>
          </form>
        </Card>
      ) : (
        <Button onClick={() => setDraft(EMPTY)}>Register a server</Button>
      )}
    </div>
  );
}
