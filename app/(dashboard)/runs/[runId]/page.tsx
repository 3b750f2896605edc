import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { RunNotFound } from "@/lib/engine/errors";
import { runHeader, runMarkers, runTaskImages } from "@/lib/runs/server/runs";
import { getDb } from "@/lib/db/server/db";
import { loadPriceBook } from "@/lib/pricing/server/price-book";
import { getVersion } from "@/lib/agents/server/store";
import { readEventsOfTypes } from "@/lib/run-ledger/read";
import { effectiveModel } from "@/lib/agents/model-inheritance";
import { isPlanEvent, PLAN_EVENT_TYPES, type PlanEvent } from "@/lib/runs/plan-view";
import { isTerminal, type RunHeaderData } from "@/lib/runs/schemas";
import type { PlanData } from "@/components/plan/plan-section";
import { RunClient } from "./run-client";

export const metadata: Metadata = { title: "Run" };

// A 1,000-node plan retried at most 5 times per node writes about 7,000 plan events.
const MAX_PLAN_EVENTS = 20_000;

/**
 * The run's graph as plan-and-execute needs it: whether this run plans, and the model
 * each agent runs with (a plan node's agent inherits from the planner, the entry agent).
 */
async function planGraphOf(header: RunHeaderData): Promise<{ planMode: boolean; agentModels: Record<string, string> }> {
  if (!header.graphName) return { planMode: false, agentModels: {} };
  // An unsaved variant's structure is the version it derives from (only a prompt or a model differed), not the newest.
  const graph = await getVersion(getDb(), header.graphName, header.version ?? header.variantOf ?? undefined).then(
    (stored) => stored.graph,
    // An archived or removed graph still leaves its runs readable; its nodes' cost shows as unknown.
    () => null,
  );
  if (!graph) return { planMode: false, agentModels: {} };
  const entry = graph.agents.find((a) => a.name === graph.entryAgent);
  const plannerModel = effectiveModel(entry?.model ?? "inherit", null);
  const agentModels = Object.fromEntries(graph.agents.map((a) => [a.name, a.name === graph.entryAgent ? plannerModel : effectiveModel(a.model, plannerModel)]));
  // A plan node's own run belongs to the same graph; only the planner's run (the entry agent's) plans.
  return { planMode: graph.mode === "plan-and-execute" && header.agentName === graph.entryAgent, agentModels };
}

/**
 * The plan events read with the page, and what costing the nodes needs; null
 * for a run that neither plans nor proposed a plan. A plan run still planning
 * gets its plan from the live tail; a finished run without a plan never did.
 */
async function planData(runId: string, header: RunHeaderData): Promise<PlanData | null> {
  const events: PlanEvent[] = (await readEventsOfTypes(getDb(), runId, PLAN_EVENT_TYPES, { take: MAX_PLAN_EVENTS })).filter(isPlanEvent);
  const proposed = events.some((e) => e.type === "plan_proposed");
  if (!proposed && isTerminal(header.status)) return null;
  const graph = await planGraphOf(header);
  if (!proposed && !graph.planMode) return null;
  return { events, through: header.lastEventSeq, agentModels: graph.agentModels, prices: await loadPriceBook() };
}

export default async function RunPage({ params, searchParams }: { params: Promise<{ runId: string }>; searchParams: Promise<{ poll?: string; span?: string }> }) {
  const user = await requirePageUser();
  const { runId: raw } = await params;
  const runId = decodeURIComponent(raw);
  const header = await runHeader(runId).catch((error: unknown) => {
    if (error instanceof RunNotFound) notFound();
    throw error;
  });
  const [markers, plan, taskImages] = await Promise.all([runMarkers(runId), planData(runId, header), runTaskImages(runId)]);
  const { poll: pollParam, span } = await searchParams;
  const poll = Number(pollParam);
  return (
    <RunClient
      initialHeader={header}
      markers={markers}
      plan={plan}
      taskImages={taskImages}
      canLaunch={can(user.role, "runs:launch")}
      canDecide={can(user.role, "approvals:decide")}
      canAddToDataset={can(user.role, "agents:edit")}
      pollMs={Number.isFinite(poll) && poll >= 200 ? poll : 1000}
      // ?span=<id> (a search result's link) opens the run with that span selected.
      initialSpanId={typeof span === "string" && /^[\w-]{1,64}$/.test(span) ? span : null}
    />
  );
}
