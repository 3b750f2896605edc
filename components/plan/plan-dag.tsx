"use client";
// The DAG of a plan from its plan events (lib/runs/plan-view.ts): the canvas,
// and under it the selected node with its child run's trace. The run page
// feeds it the events it tails; the approval inbox, a proposed plan alone.
import { useMemo, useState } from "react";
import { buildPlanView, planRounds, type PlanEvent } from "@/lib/runs/plan-view";
import type { PriceBook } from "@/lib/runs/pricing";
import { PlanCanvas } from "./plan-canvas";
import { PlanList } from "./plan-list";

/** Plans larger than this open as a list (the graph stays one click away). */
export const LIST_VIEW_ABOVE = 300;
import { PlanNodeDetails } from "./plan-node-details";

export interface PlanDagProps {
  /** The plan run. */
  runId: string;
  events: readonly PlanEvent[];
  /** The model each agent of the graph runs with, to cost a node's tokens. */
  agentModels: Readonly<Record<string, string>>;
  prices: PriceBook;
  /** Runs waiting for a decision (the run header's): their nodes show as waiting for approval. */
  awaitingApprovalRunIds?: readonly string[];
}

const NONE: readonly string[] = [];

/** Nothing until a plan has been proposed. */
export function PlanDag({ runId, events, agentModels, prices, awaitingApprovalRunIds = NONE }: PlanDagProps) {
  // Keyed on the ids' text: the header is a new object on every poll, the ids rarely change.
  const awaitingKey = awaitingApprovalRunIds.join(" ");
  // A follow-up plans again: each plan is a round with its own nodes and child runs; the latest shows unless one is picked.
  const rounds = useMemo(() => planRounds(events).length, [events]);
  const [picked, setPicked] = useState<number | null>(null);
  const round = picked !== null && picked < rounds ? picked : rounds - 1;
  const view = useMemo(() => buildPlanView(events, new Set(awaitingKey ? awaitingKey.split(" ") : []), round), [events, awaitingKey, round]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [mode, setMode] = useState<"graph" | "list" | null>(null);
  if (!view) return null;
  const shown = mode ?? (view.nodes.length > LIST_VIEW_ABOVE ? "list" : "graph");
  const toolbar = (
    <span className="ml-auto flex gap-1 text-xs" role="group" aria-label="Plan view">
      {(["graph", "list"] as const).map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={shown === m}
          onClick={() => setMode(m)}
          className={`rounded border px-2 py-0.5 ${shown === m ? "border-indigo-500 bg-indigo-50 text-indigo-700" : "border-zinc-300 text-zinc-600 hover:bg-zinc-50"}`}
        >
          {m === "graph" ? "Graph" : "List"}
        </button>
      ))}
    </span>
  );
  const selected = view.nodes.find((n) => n.id === selectedId) ?? null;
  const pick = (index: number) => {
    setPicked(index === rounds - 1 ? null : index);
    setSelectedId(null);
  };
  return (
    <div className="space-y-2" data-run={runId}>
      {rounds > 1 ? (
        <div role="tablist" aria-label="Plans of this run" className="flex gap-1 text-xs">
          {Array.from({ length: rounds }, (_, i) => (
            <button
              key={i}
              type="button"
              role="tab"
              aria-selected={i === round}
              data-testid={`plan-round-${i + 1}`}
              onClick={() => pick(i)}
              className={`rounded border px-2 py-0.5 ${i === round ? "border-indigo-500 bg-indigo-50 text-indigo-700" : "border-zinc-300 text-zinc-600 hover:bg-zinc-50"}`}
            >
              Plan {i + 1}
              {i === rounds - 1 ? " (latest)" : ""}
            </button>
          ))}
        </div>
      ) : null}
      {shown === "graph" ? (
        <PlanCanvas view={view} agentModels={agentModels} prices={prices} selectedId={selectedId} onSelect={setSelectedId} toolbar={toolbar} />
      ) : (
        <PlanList view={view} agentModels={agentModels} prices={prices} selectedId={selectedId} onSelect={setSelectedId} toolbar={toolbar} />
      )}
      {selected ? <PlanNodeDetails node={selected} onClose={() => setSelectedId(null)} /> : <p className="text-xs text-zinc-500">Click a node to see its objective and, once it ran, its run&apos;s trace here.</p>}
    </div>
  );
}
