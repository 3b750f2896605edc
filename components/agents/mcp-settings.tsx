"use client";
// One MCP server of an agent: which registered server it uses (by name), which
// of its tools the agent may call, and "Discover tools" (run by a worker). A
// legacy inline server shows why it no longer runs and, to an admin, a link
// that registers it.
import { useEffect, useState, useTransition } from "react";
import Link from "@/components/ui/link";
import type { McpServerConfig } from "@/lib/agents/schemas";
import type { GraphIssue } from "@/lib/agents/validate";
import type { DiscoveredTool } from "@/lib/agents/designer-schemas";
import type { McpServerView } from "@/lib/mcp/schemas";
import { discoverMcpToolsAction } from "@/lib/actions/discover-mcp-tools";
import { mcpRegistryForDesignerAction } from "@/lib/actions/mcp-registry-for-designer";
import { Field, FieldIssues, INPUT } from "./fields";

interface Registry {
  servers: McpServerView[];
  canManage: boolean;
}

/** The registry as the designer sees it (no secret values), shared by the inspector's servers and re-read after a few seconds. */
let registryRequest: { at: number; request: Promise<Registry | null> } | null = null;
function loadRegistry(): Promise<Registry | null> {
  if (!registryRequest || Date.now() - registryRequest.at > 5_000) {
    registryRequest = { at: Date.now(), request: mcpRegistryForDesignerAction({}).then((r) => (r.ok ? r.data : null)) };
  }
  return registryRequest.request;
}

/** The MCP registry as the designer sees it (null while loading or when it cannot be read). */
export function useMcpRegistry(): Registry | null {
  const [registry, setRegistry] = useState<Registry | null>(null);
  useEffect(() => {
    let live = true;
    void loadRegistry().then((r) => live && setRegistry(r));
    return () => {
      live = false;
    };
  }, []);
  return registry;
}

/** The admin page, prefilled with a legacy inline server's settings (never its environment values). */
function registerHref(server: McpServerConfig): string {
  const params = new URLSearchParams({ register: server.name });
  const transport = server.transport;
  if (transport?.type === "stdio") {
    params.set("command", transport.command);
    params.set("args", JSON.stringify(transport.args));
  } else if (transport?.type === "http") {
    params.set("url", transport.url);
  }
  if (server.allowTools) params.set("allowTools", server.allowTools.join(","));
  return `/admin/mcp?${params.toString()}`;
}

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
  const registry = useMcpRegistry();
  const [pending, startTransition] = useTransition();
  const id = `mcp-${server.name}`;

  const registered = registry?.servers.find((s) => s.name === server.name);

  function discover() {
    setFailure(null);
    startTransition(async () => {
      const result = await discoverMcpToolsAction({ name: server.name });
      if (!result.ok) setFailure(result.error.message);
      else if (!result.data.ok) setFailure(result.data.reason);
      else onDiscovered(result.data.tools.filter((t) => !registered || registered.allowTools.length === 0 || registered.allowTools.includes(t.name)));
    });
  }

  const allowed = server.allowTools;
  const offered: DiscoveredTool[] = discovered ? [...discovered] : registered && registered.allowTools.length > 0 ? registered.allowTools.map((name) => ({ name, description: "" })) : (allowed ?? []).map((name) => ({ name, description: "" }));
  const toggle = (tool: string, on: boolean) => {
    const current = allowed ?? offered.map((t) => t.name);
    const next = on ? [...new Set([...current, tool])] : current.filter((t) => t !== tool);
    onChange({ ...server, allowTools: next }, `allow:${tool}`);
  };

  if (server.transport) {
    return (
      <fieldset className="space-y-2 rounded-md border border-red-200 bg-red-50 p-2" aria-label={`MCP server ${server.name}`}>
        <p className="text-xs font-medium text-zinc-800">
          <span className="font-mono">{server.name}</span> is an inline server ({server.transport.type === "stdio" ? "a command" : "a URL"} in the graph).
        </p>
        <FieldIssues issues={issues} path={`${base}.transport`} />
        {registered ? (
          readOnly ? null : (
            <button type="button" onClick={() => onChange({ name: server.name, ...(server.allowTools ? { allowTools: server.allowTools } : {}) }, "use-registered")} className="rounded bg-sky-600 px-2 py-1 text-xs font-medium text-white hover:bg-sky-500">
              Use the registered server “{server.name}”
            </button>
          )
        ) : registry?.canManage ? (
          <Link href={registerHref(server)} className="inline-block rounded bg-sky-600 px-2 py-1 text-xs font-medium text-white hover:bg-sky-500">
            Register this server
          </Link>
        ) : (
          <p className="text-xs text-zinc-700">An admin must register this server before the agent can use it.</p>
        )}
        {readOnly ? null : (
          <button type="button" onClick={onRemove} className="ml-3 text-xs text-red-700 hover:underline">
            Remove server
          </button>
        )}
      </fieldset>
    );
  }

  return (
    <fieldset className="space-y-2 rounded-md border border-zinc-200 p-2" aria-label={`MCP server ${server.name}`}>
      <Field id={`${id}-name`} label="Registered server" path={`${base}.name`} issues={issues}>
        <select id={`${id}-name`} className={INPUT} value={server.name} disabled={readOnly} onChange={(e) => onChange({ name: e.target.value }, "name")}>
          {registered ? null : <option value={server.name}>{server.name} (not registered)</option>}
          {(registry?.servers ?? []).map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
              {s.description ? ` — ${s.description}` : ""}
            </option>
          ))}
        </select>
      </Field>
      {registry && !registered ? (
        <p className="text-xs text-red-700" data-testid={`${id}-unregistered`}>
          No MCP server named “{server.name}” is registered. {registry.canManage ? <Link href="/admin/mcp" className="underline">Register it</Link> : "An admin must register it."}
        </p>
      ) : null}
      {registered ? (
        <p className="text-xs text-zinc-500">
          {registered.transport.type === "stdio" ? "stdio" : "Streamable HTTP"}
          {registered.receivesRunContext ? " · receives the run's context" : ""}
        </p>
      ) : null}
      {readOnly ? null : (
        <div className="flex items-center gap-3">
          <button type="button" onClick={discover} disabled={pending || !registered} className="rounded bg-sky-600 px-2 py-1 text-xs font-medium text-white hover:bg-sky-500 disabled:opacity-50">
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
      {offered.length > 0 || allowed ? (
        <div className="text-xs" data-testid={`${id}-tools`}>
          <p className="font-medium text-zinc-700">{allowed ? "Tools this agent may use" : "Tools offered (all allowed; untick to restrict)"}</p>
          <ul>
            {offered.map((tool) => (
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
