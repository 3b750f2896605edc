"use client";
// The designer's node types. Declared once at module scope (React Flow re-mounts
// every node when nodeTypes changes) and memoized, so a large graph re-renders
// only the nodes whose data changed.
import { memo } from "react";
import { Handle, Position, type NodeProps, type NodeTypes } from "@xyflow/react";
import type { AgentFlowNode, McpFlowNode, ToolFlowNode } from "./flow-model";
import type { DiffMark } from "@/lib/agents/graph-diff";
import { plural } from "@/lib/text/plural";

// Borders, not rings or shadows: box-shadows on hundreds of nodes make every
// pan frame repaint slowly where the browser rasterizes in software.
const MARK_STYLE: Record<DiffMark, string> = {
  added: "border-2 border-emerald-500 bg-emerald-50",
  removed: "border-2 border-red-500 bg-red-50 opacity-70",
  changed: "border-2 border-amber-500 bg-amber-50",
};

function frame(selected: boolean, mark: DiffMark | null, errors: number) {
  if (mark) return MARK_STYLE[mark];
  if (errors > 0) return selected ? "border-2 border-red-600 bg-white" : "border border-red-400 bg-white";
  return selected ? "border-2 border-indigo-600 bg-white" : "border border-zinc-300 bg-white";
}

/** The shield's hover text: how many guardrails and each one's name and action, e.g. "2 guardrails: no-cards: block, big-transfers: inbox". */
export function guardrailTitle(guardrails: readonly string[]): string {
  return `${plural(guardrails.length, "guardrail")}: ${guardrails.join(", ")}`;
}

export const AgentNode = memo(function AgentNode({ data, selected }: NodeProps<AgentFlowNode>) {
  const badge = data.errors > 0 ? "error" : data.warnings > 0 ? "warning" : "ok";
  return (
    <div
      className={`w-[220px] rounded-lg px-3 py-2 text-xs ${frame(selected, data.mark, data.errors)}`}
      data-testid={`agent-node-${data.name}`}
      data-validation={badge}
      data-diff={data.mark ?? undefined}
      title={data.firstProblem ?? undefined}
    >
      <Handle type="target" position={Position.Top} className="designer-handle" />
      {/* The name keeps its line; the badges wrap below it when both do not fit, never cutting it short. */}
      <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-0.5">
        <span className="min-w-0 break-all text-sm font-semibold text-zinc-900" data-testid="agent-name">
          {data.name}
        </span>
        <span className="ml-auto flex shrink-0 items-center gap-1">
          {data.router ? (
            <span className="rounded bg-sky-600 px-1.5 text-[10px] font-semibold text-white" data-testid="router-marker">
              router
            </span>
          ) : null}
          {data.typed ? (
            <span className="rounded bg-zinc-200 px-1.5 text-[10px] font-semibold text-zinc-700" title="Its answer must match an output schema" data-testid="typed-marker">
              schema
            </span>
          ) : null}
          {data.guardrails.length > 0 ? (
            <span
              className="rounded bg-amber-100 px-1.5 text-[10px] font-semibold text-amber-900"
              title={guardrailTitle(data.guardrails)}
              aria-label={guardrailTitle(data.guardrails)}
              data-testid="guardrail-marker"
            >
              <span aria-hidden>🛡 </span>
              {data.guardrails.length}
            </span>
          ) : null}
          {data.entry ? (
            <span className="rounded bg-indigo-600 px-1.5 text-[10px] font-semibold text-white" data-testid="entry-marker">
              entry
            </span>
          ) : null}
          <span
            aria-label={badge === "ok" ? "valid" : `${plural(data.errors, "error")}, ${plural(data.warnings, "warning")}`}
            data-testid="validation-badge"
            className={`rounded-full px-1.5 text-[10px] font-semibold ${badge === "error" ? "bg-red-600 text-white" : badge === "warning" ? "bg-amber-400 text-zinc-900" : "bg-emerald-100 text-emerald-800"}`}
          >
            {badge === "error" ? plural(data.errors, "error") : badge === "warning" ? plural(data.warnings, "warning") : "ok"}
          </span>
        </span>
      </div>
      <p className="truncate font-mono text-zinc-600">{data.model}</p>
      <p className="text-zinc-500">
        {plural(data.tools, "tool")} · {data.mcpServers} MCP · {data.router ? plural(data.subAgents, "child", "children") : plural(data.subAgents, "sub-agent")}
        {data.handoffs > 0 ? ` · ${plural(data.handoffs, "handoff")}` : ""}
      </p>
      {data.errors > 0 && data.firstProblem ? <p className="mt-1 line-clamp-2 text-red-700" data-testid="node-problem">{data.firstProblem}</p> : null}
      <Handle type="source" position={Position.Bottom} className="designer-handle" />
    </div>
  );
});

export const ToolNode = memo(function ToolNode({ data, selected }: NodeProps<ToolFlowNode>) {
  return (
    <div className={`w-[170px] rounded-md px-2 py-1.5 text-xs ${frame(selected, data.mark, data.known ? data.errors : 1)}`} data-testid={`tool-node-${data.tool}`} data-diff={data.mark ?? undefined} title={data.description}>
      <Handle type="target" position={Position.Top} className="designer-handle" />
      <span className="font-mono font-medium text-zinc-800">{data.tool}</span>
      <span className="ml-1 text-[10px] uppercase text-zinc-400">tool</span>
    </div>
  );
});

export const McpNode = memo(function McpNode({ data, selected }: NodeProps<McpFlowNode>) {
  return (
    <div className={`w-[200px] rounded-md px-2 py-1.5 text-xs ${frame(selected, data.mark, data.errors)}`} data-testid={`mcp-node-${data.agent}-${data.server}`} data-diff={data.mark ?? undefined}>
      <Handle type="target" position={Position.Top} className="designer-handle" />
      <p className="font-semibold text-zinc-800">
        MCP <span className="font-mono">{data.server}</span>
      </p>
      <p className="truncate font-mono text-[10px] text-zinc-500">{data.transport}</p>
      {data.tools ? (
        <ul className="mt-1 font-mono text-[10px] text-zinc-700" data-testid="mcp-tools">
          {data.tools.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-[10px] text-zinc-400">tools not discovered yet</p>
      )}
    </div>
  );
});

export const NODE_TYPES: NodeTypes = { agent: AgentNode, tool: ToolNode, mcp: McpNode };
