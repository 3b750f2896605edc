"use client";
// A large plan as a list: every node a row (id, agent, status, attempts,
// duration, tokens · cost), filterable by status, in the plan's order. Past a
// few hundred nodes a canvas shows colour, not words; a list stays readable
// and finds the failed node in one filter. Rows select a node like the canvas.
import { useMemo, useState } from "react";
import { nodeCost, PLAN_NODE_STATUS_LABEL, type PlanNodeViewStatus, type PlanView } from "@/lib/runs/plan-view";
import { formatCost, formatTokens, type PriceBook } from "@/lib/runs/pricing";
import { formatDuration } from "@/components/runs/usage";
import { PlanHeader, RunningDuration } from "./plan-header";
import { STATUS_STYLE } from "./plan-canvas";

/** Rows drawn at once; the rest is one "show more" away (a list of 1,000 rows stays quick to render). */
const PAGE = 200;

export interface PlanListProps {
  view: PlanView;
  agentModels: Readonly<Record<string, string>>;
  prices: PriceBook;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  /** Controls shown beside the header (the view switch). */
  toolbar?: React.ReactNode;
}

export function PlanList({ view, agentModels, prices, selectedId, onSelect, toolbar }: PlanListProps) {
  const [status, setStatus] = useState<PlanNodeViewStatus | "all">("all");
  const [shown, setShown] = useState(PAGE);
  const rows = useMemo(() => (status === "all" ? view.nodes : view.nodes.filter((n) => n.status === status)), [view.nodes, status]);
  const present = (Object.keys(view.counts) as PlanNodeViewStatus[]).filter((s) => view.counts[s] > 0);
  return (
    <section className="space-y-2" aria-label="Plan">
      <PlanHeader view={view}>{toolbar}</PlanHeader>
      <label className="flex items-center gap-2 text-xs text-zinc-600">
        Status
        <select className="rounded border border-zinc-300 px-1 py-0.5" value={status} onChange={(e) => setStatus(e.target.value as PlanNodeViewStatus | "all")} aria-label="Show nodes with status">
          <option value="all">all ({view.nodes.length})</option>
          {present.map((s) => (
            <option key={s} value={s}>
              {PLAN_NODE_STATUS_LABEL[s]} ({view.counts[s]})
            </option>
          ))}
        </select>
      </label>
      <div className="max-h-[480px] overflow-auto rounded-lg border border-zinc-200" data-testid="plan-list" data-nodes={view.nodes.length}>
        <table className="w-full text-left text-xs">
          <thead className="sticky top-0 bg-zinc-50 text-zinc-600">
            <tr>
              <th className="px-2 py-1">Node</th>
              <th className="px-2 py-1">Agent</th>
              <th className="px-2 py-1">Status</th>
              <th className="px-2 py-1">Attempts</th>
              <th className="px-2 py-1">Duration</th>
              <th className="px-2 py-1">Tokens · cost</th>
            </tr>
          </thead>
          <tbody>
            {rows.slice(0, shown).map((node) => (
              <tr
                key={node.id}
                className={`cursor-pointer border-t border-zinc-100 hover:bg-zinc-50 ${node.id === selectedId ? "bg-indigo-50" : ""}`}
                onClick={() => onSelect(node.id === selectedId ? null : node.id)}
                data-testid={`plan-row-${node.id}`}
                data-status={node.status}
                aria-selected={node.id === selectedId}
                title={node.reason ?? node.objective}
              >
                <td className="px-2 py-1 font-mono">{node.id}</td>
                <td className="px-2 py-1">{node.agent}</td>
                <td className="px-2 py-1">
                  <span className={`rounded px-1.5 text-[10px] font-semibold ${STATUS_STYLE[node.status].badge}`}>{PLAN_NODE_STATUS_LABEL[node.status]}</span>
                </td>
                <td className="px-2 py-1">{node.attempts}</td>
                <td className="px-2 py-1">{node.status === "running" || node.status === "awaiting_approval" ? <RunningDuration node={node} /> : node.durationMs === null ? "—" : formatDuration(node.durationMs)}</td>
                <td className="px-2 py-1">{node.usage ? `${formatTokens(node.usage)} · ${formatCost(nodeCost(node, agentModels, prices))}` : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length > shown ? (
          <button type="button" className="w-full border-t border-zinc-200 py-1 text-xs text-indigo-700 hover:bg-zinc-50" onClick={() => setShown((n) => n + PAGE)}>
            Show {Math.min(PAGE, rows.length - shown)} more of {rows.length - shown}
          </button>
        ) : null}
      </div>
    </section>
  );
}
