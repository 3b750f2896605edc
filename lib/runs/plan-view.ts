// The live DAG of a plan-and-execute run, built from the run's own events:
// the last plan proposed is the one the run executes; each node's status,
// times, child run, usage and reason come from its plan_node_* events. Pure
// and browser-safe, so the run page rebuilds it from the events it already
// tails (no query per node) and tests need no engine.
import type { Plan, PlanNode, PlanNodeStatus, PlanOutcome } from "../contract/plan";
import type { RunEvent, TokenUsage } from "../contract/types";
import { costAt, type PriceBook } from "./pricing";

export const PLAN_EVENT_TYPES = ["plan_proposed", "plan_node_started", "plan_node_finished", "plan_finished"] as const satisfies readonly RunEvent["type"][];

export type PlanEvent = Extract<RunEvent, { type: (typeof PLAN_EVENT_TYPES)[number] }>;

export function isPlanEvent(event: RunEvent): event is PlanEvent {
  return (PLAN_EVENT_TYPES as readonly string[]).includes(event.type);
}

/**
 * A node's status as the DAG shows it: the executor's, plus "awaiting_approval"
 * for a running node whose run (or a run below it) waits for a decision — a
 * fact of the run ledger, not of the plan events.
 */
export type PlanNodeViewStatus = PlanNodeStatus | "awaiting_approval";

/** The words a person reads for each status. */
export const PLAN_NODE_STATUS_LABEL: Record<PlanNodeViewStatus, string> = {
  pending: "pending",
  running: "running",
  awaiting_approval: "waiting for approval",
  completed: "completed",
  failed: "failed",
  skipped: "skipped",
  cancelled: "cancelled",
};

export interface PlanNodeView extends PlanNode {
  status: PlanNodeViewStatus;
  /** The child run of the latest attempt (null until started, and for a node skipped without running). */
  runId: string | null;
  /** Attempts started so far (the finished event's count once it ends). */
  attempts: number;
  /** When the first attempt started and when the node finished (event times, ISO). */
  startedAt: string | null;
  endedAt: string | null;
  /** Finished nodes only; a running node's duration is "now − start", which the view computes. */
  durationMs: number | null;
  usage: TokenUsage | null;
  /** Why it failed or was skipped ("dependency X failed"). */
  reason: string | null;
}

export interface PlanSummary {
  outcome: PlanOutcome;
  completed: number;
  failed: number;
  skipped: number;
  /** Nodes stopped with the plan (outcome cancelled), and why it stopped. */
  cancelled?: number;
  reason?: string;
}

export interface PlanView {
  plan: Plan;
  /** Which proposal this is (repairs and rejected plans propose again). */
  planAttempt: number;
  /** The seq of the plan_proposed event: the plan's identity, so a layout is redone only when the plan changes. */
  planSeq: number;
  nodes: PlanNodeView[];
  /** One edge per dependency, from the node depended on to the node that needs it. */
  edges: { source: string; target: string }[];
  counts: Record<PlanNodeViewStatus, number>;
  /** Set once plan_finished arrives. */
  finished: PlanSummary | null;
}

const NO_RUNS: ReadonlySet<string> = new Set();

function bySeq(events: readonly PlanEvent[]): readonly PlanEvent[] {
  for (let i = 1; i < events.length; i++) {
    if ((events[i] as PlanEvent).seq < (events[i - 1] as PlanEvent).seq) return [...events].sort((a, b) => a.seq - b.seq);
  }
  return events;
}

/**
 * The plans of a run, in order, each as its plan events: a follow-up's turn
 * plans again, and its plan (with child runs of its own) is a round of its
 * own. A round starts at the first proposal after the previous plan finished.
 */
export function planRounds(events: readonly RunEvent[]): PlanEvent[][] {
  const rounds: PlanEvent[][] = [];
  let current: PlanEvent[] | null = null;
  let finished = false;
  for (const event of bySeq(events.filter(isPlanEvent))) {
    if (event.type === "plan_proposed" && (current === null || finished)) {
      current = [];
      rounds.push(current);
      finished = false;
    }
    if (!current) continue;
    current.push(event);
    if (event.type === "plan_finished") finished = true;
  }
  return rounds;
}

/**
 * The DAG as the run's events describe it, or null when no plan was proposed yet.
 * `awaitingApprovalRunIds`: runs that wait for a decision (the run header's), so
 * a running node whose run is among them shows as waiting for approval.
 * `round`: which of the run's plans (planRounds), the latest by default.
 */
export function buildPlanView(events: readonly RunEvent[], awaitingApprovalRunIds: ReadonlySet<string> = NO_RUNS, round?: number): PlanView | null {
  const rounds = planRounds(events);
  const planEvents = rounds[round ?? rounds.length - 1] ?? [];
  let proposedAt = -1;
  for (let i = planEvents.length - 1; i >= 0; i--) {
    if (planEvents[i]?.type === "plan_proposed") {
      proposedAt = i;
      break;
    }
  }
  const proposed = planEvents[proposedAt];
  if (!proposed || proposed.type !== "plan_proposed") return null;

  const nodes: PlanNodeView[] = proposed.plan.nodes.map((node) => ({
    ...node,
    status: "pending",
    runId: null,
    attempts: 0,
    startedAt: null,
    endedAt: null,
    durationMs: null,
    usage: null,
    reason: null,
  }));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  let finished: PlanSummary | null = null;
  // Only events after the plan the run executes belong to it; earlier proposals never ran.
  for (let i = proposedAt + 1; i < planEvents.length; i++) {
    const event = planEvents[i] as PlanEvent;
    if (event.type === "plan_finished") {
      finished = {
        outcome: event.outcome,
        completed: event.completed,
        failed: event.failed,
        skipped: event.skipped,
        ...(event.cancelled !== undefined ? { cancelled: event.cancelled } : {}),
        ...(event.reason !== undefined ? { reason: event.reason } : {}),
      };
      continue;
    }
    if (event.type === "plan_proposed") continue;
    const node = byId.get(event.nodeId);
    if (!node) continue;
    if (event.type === "plan_node_started") {
      node.status = "running";
      node.runId = event.runId;
      node.attempts = Math.max(node.attempts, event.attempt);
      node.startedAt ??= event.at;
      node.endedAt = null;
      node.durationMs = null;
    } else {
      node.status = event.status;
      if (event.runId !== null) node.runId = event.runId;
      node.attempts = event.attempts;
      node.endedAt = event.at;
      node.durationMs = node.startedAt === null ? null : Math.max(0, Date.parse(event.at) - Date.parse(node.startedAt));
      node.usage = event.usage ?? null;
      node.reason = event.reason ?? null;
    }
  }
  for (const node of nodes) if (node.status === "running" && node.runId !== null && awaitingApprovalRunIds.has(node.runId)) node.status = "awaiting_approval";
  const counts: Record<PlanNodeViewStatus, number> = { pending: 0, running: 0, awaiting_approval: 0, completed: 0, failed: 0, skipped: 0, cancelled: 0 };
  for (const node of nodes) counts[node.status]++;
  const edges = nodes.flatMap((node) => node.dependsOn.filter((dep) => byId.has(dep)).map((dep) => ({ source: dep, target: node.id })));
  return { plan: proposed.plan, planAttempt: proposed.attempt, planSeq: proposed.seq, nodes, edges, counts, finished };
}

/**
 * Adds the plan events of `incoming` that `known` does not hold yet (by seq),
 * keeping seq order; returns `known` itself when nothing is new, so a memo keyed on it holds.
 */
export function mergePlanEvents(known: readonly PlanEvent[], incoming: readonly RunEvent[]): readonly PlanEvent[] {
  const seen = new Set(known.map((e) => e.seq));
  const added = incoming.filter((e): e is PlanEvent => isPlanEvent(e) && !seen.has(e.seq));
  if (added.length === 0) return known;
  return bySeq([...known, ...added]);
}

/** A node's duration: finished nodes their own, a running one up to `now`, others none. */
export function nodeDurationMs(node: Pick<PlanNodeView, "status" | "startedAt" | "durationMs">, now: number): number | null {
  if (node.durationMs !== null) return node.durationMs;
  if ((node.status === "running" || node.status === "awaiting_approval") && node.startedAt !== null) return Math.max(0, now - Date.parse(node.startedAt));
  return null;
}

/**
 * What a node's tokens cost on the model its agent runs with, or null when that
 * model has no price (or is not known); no usage yet costs nothing. The node's
 * usage is one sum, priced at the price in effect when it ended (or started).
 */
export function nodeCost(node: Pick<PlanNodeView, "agent" | "usage"> & Partial<Pick<PlanNodeView, "startedAt" | "endedAt">>, agentModels: Readonly<Record<string, string>>, prices: PriceBook): number | null {
  if (!node.usage) return 0;
  const model = agentModels[node.agent];
  const at = node.endedAt ?? node.startedAt;
  return model === undefined ? null : costAt(prices, model, node.usage, at ? Date.parse(at) : Date.now());
}

/** "3 of 5 completed · 1 running · 1 failed" — the counts that are not zero. */
export function planProgressLine(view: Pick<PlanView, "nodes" | "counts">): string {
  const { counts } = view;
  const parts = [`${counts.completed} of ${view.nodes.length} completed`];
  for (const status of ["running", "awaiting_approval", "failed", "skipped", "cancelled", "pending"] as const) if (counts[status] > 0) parts.push(`${counts[status]} ${PLAN_NODE_STATUS_LABEL[status]}`);
  return parts.join(" · ");
}

/** The plan events a page holds, and the seq up to which it has looked at every event. */
export interface KnownPlanEvents {
  events: readonly PlanEvent[];
  through: number;
}

/**
 * What a new window of the live tail means for the plan events known: nothing
 * new; merge it (it follows on); or first read the stretch it dropped (the
 * tail keeps only its latest events, and one poll can bring more than that).
 */
export function followTail(known: KnownPlanEvents, tail: readonly RunEvent[]): { kind: "none" } | { kind: "merge"; next: KnownPlanEvents } | { kind: "gap"; since: number; until: number } {
  const first = tail[0];
  const last = tail[tail.length - 1];
  if (!first || !last || last.seq <= known.through) return { kind: "none" };
  if (first.seq > known.through + 1) return { kind: "gap", since: known.through, until: first.seq - 1 };
  return { kind: "merge", next: { events: mergePlanEvents(known.events, tail), through: last.seq } };
}

/** The known events with a dropped stretch read back and the tail window that followed it. */
export function mergeStretch(known: KnownPlanEvents, stretch: readonly RunEvent[], tail: readonly RunEvent[]): KnownPlanEvents {
  const last = tail[tail.length - 1]?.seq ?? stretch[stretch.length - 1]?.seq ?? known.through;
  return { events: mergePlanEvents(mergePlanEvents(known.events, stretch), tail), through: Math.max(known.through, last) };
}
