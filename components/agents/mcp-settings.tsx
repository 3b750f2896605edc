"use client";
// One MCP server of an agent: transport settings, "Discover tools" (through
// the server side), and which of the discovered tools the agent may use.
import { useState, useTransition } from "react";
import type { McpServerConfig } from "@/lib/agents/schemas";
import type { GraphIssue } from "@/lib/agents/validate";
import type { DiscoveredTool } from "@/lib/agents/designer-schemas";
import { discoverMcpToolsAction } from "@/lib/actions/discover-mcp-tools";
import { Field, INPUT } from "./fields";

/** Splits an argument line on spaces, keeping "quoted parts" together. */
function splitArgs(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
}
const joinArgs = (args: readonly string[]) => args.map((a) => (/\s/.test(a) || a === "" ? `"${a}"` : a)).join(" ");

export function McpSettings(props: {
  server: McpServerConfig;
  base: string;
  issues: { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] };
  readOnly: boolean;
  discovered: readonly DiscoveredTool[] | undefined;
  onDiscovered: (tools: DiscoveredTool[]) => void;
  onChange: (server: McpServerConfig, key: string) => void;
  onRemove: () => void;
}) {
  const { server, base, issues, readOnly, discovered, onDiscovered, onChange, onRemove } = props;
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const id = `mcp-${server.name}`;

  function discover() {
    setFailure(null);
    startTransition(async () => {
      const result = await discoverMcpToolsAction({ server });
      if (!result.ok) setFailure(result.error.issues?.map((i) => `${i.path}: ${i.message}`).join("; ") || result.error.message);
      else if (!result.data.ok) setFailure(result.data.reason);
      else onDiscovered(result.data.tools);
    });
  }

  const allowed = server.allowTools;
  const toggle = (tool: string, on: boolean) => {
    const all = discovered?.map((t) => t.name) ?? allowed ?? [];
    const current = allowed ?? all;
    const next = on ? [...new Set([...current, tool])] : current.filter((t) => t !== tool);
    onChange({ ...server, allowTools: next }, `allow:${tool}`);
  };

  return (
    <fieldset className="space-y-2 rounded-md border border-zinc-200 p-2" aria-label={`MCP server ${server.name}`}>
      <Field id={`${id}-name`} label="Server name" path={`${base}.name`} issues={issues}>
        <input id={`${id}-name`} className={INPUT} value={server.name} disabled={readOnly} onChange={(e) => onChange({ ...server, name: e.target.value }, "name")} />
      </Field>
      <Field id={`${id}-transport`} label="Transport" path={`${base}.transport`} issues={issues}>
        <select
          id={`${id}-transport`}
          className={INPUT}
          value={server.transport.type}
          disabled={readOnly}
          onChange={(e) => onChange({ ...server, transport: e.target.value === "http" ? { type: "http", url: "http://127.0.0.1:8931/mcp" } : { type: "stdio", command: "node", args: [] } }, "transport")}
        >
          <option value="stdio">stdio (command)</option>
          <option value="http">Streamable HTTP (URL)</option>
        </select>
      </Field>
      {server.transport.type === "stdio" ? (
        <div className="grid grid-cols-3 gap-2">
          <Field id={`${id}-command`} label="Command" path={`${base}.transport.command`} issues={issues}>
            <input id={`${id}-command`} className={INPUT} value={server.transport.command} disabled={readOnly} onChange={(e) => server.transport.type === "stdio" && onChange({ ...server, transport: { ...server.transport, command: e.target.value } }, "command")} />
          </Field>
          <div className="col-span-2">
            <Field id={`${id}-args`} label="Arguments" path={`${base}.transport.args`} issues={issues}>
              <input id={`${id}-args`} className={INPUT} value={joinArgs(server.transport.args)} disabled={readOnly} onChange={(e) => server.transport.type === "stdio" && onChange({ ...server, transport: { ...server.transport, args: splitArgs(e.target.value) } }, "args")} />
            </Field>
          </div>
        </div>
      ) : (
        <Field id={`${id}-url`} label="URL" path={`${base}.transport.url`} issues={issues}>
          <input id={`${id}-url`} className={INPUT} value={server.transport.url} disabled={readOnly} onChange={(e) => onChange({ ...server, transport: { type: "http", url: e.target.value } }, "url")} />
        </Field>
      )}
      {readOnly ? null : (
        <div className="flex items-center gap-3">
          <button type="button" onClick={discover} disabled={pending} className="rounded bg-sky-600 px-2 py-1 text-xs font-medium text-white hover:bg-sky-500 disabled:opacity-50">
            {pending ? "Discovering…" : "Discover tools"}
          </button>
          <button type="button" onClick={onRemove} className="text-xs text-red-700 hover:underline">
            Remove server
          </button>
        </div>
      )}
      {failure ? (
        <p role="alert" className="text-xs text-red-700" data-testid="discover-failure">
          Could not list tools: {failure}
        </p>
      ) : null}
      {discovered || allowed ? (
        <div className="text-xs" data-testid={`${id}-tools`}>
          <p className="font-medium text-zinc-700">{allowed ? "Tools this agent may use" : "Discovered tools (all offered; untick to restrict)"}</p>
          <ul>
            {(discovered ?? allowed?.map((name) => ({ name, description: "" })) ?? []).map((tool) => (
              <li key={tool.name}>
                <label className="flex items-center gap-1">
                  <input type="checkbox" disabled={readOnly} checked={!allowed || allowed.includes(tool.name)} onChange={(e) => toggle(tool.name, e.target.checked)} />
                  <span className="font-mono">{tool.name}</span>
                  {tool.description ? <span className="truncate text-zinc-500">— {tool.description}</span> : null}
                </label>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </fieldset>
  );
}
