// Turns a run tree's ledger (events, model-call and tool spans, assistant
// messages of each run) into the steps the diff compares, in causal order: each
// run's steps in event order, each child run's steps inserted after the last
// step of its parent that happened before the child started. Pure, so the
// alignment can be tested and benchmarked without a database.
import type { ChatMessage, RunEvent, TokenUsage } from "../../contract/types";
import { costAt, type PriceBook } from "../pricing";
import { canonicalJson, type RunStep } from "./steps";
import { normalisedFields, treeNormaliser } from "./normalise";

/** A model-call or tool span as the diff needs it. */
export interface StepSpan {
  id: string;
  kind: "inference" | "tool";
  status: string;
  /** The tool span's call id (attributes.callId). */
  callId: string | null;
  /** Reused from a tape: the span's data or attributes say `replayed: true`. */
  replayed: boolean;
}

export interface LedgerRun {
  runId: string;
  parentRunId: string | null;
  agentName: string;
  startedAt: string;
  events: RunEvent[];
  /** Inference and tool spans in start order. */
  spans: StepSpan[];
  /** The run's assistant messages in order: the k-th successful model call said the k-th. */
  assistantMessages: Extract<ChatMessage, { role: "assistant" }>[];
}

const UUID_SUFFIX = /-[0-9a-f]{8}$/;

/**
 * Each run's place in the tree, without the random parts of child ids: a child
 * `<parent>.billing-1a2b3c4d` is `<parent's path>.billing#1`, the ordinal
 * counting the parent's children of the same name in start order; a child whose
 * id does not extend its parent's is named after its agent.
 */
export function runPaths(runs: readonly Pick<LedgerRun, "runId" | "parentRunId" | "agentName" | "startedAt">[], rootRunId: string): Map<string, string> {
  const children = new Map<string, (typeof runs)[number][]>();
  for (const run of runs) {
    if (run.parentRunId === null || run.runId === rootRunId) continue;
    const list = children.get(run.parentRunId);
    if (list) list.push(run);
    else children.set(run.parentRunId, [run]);
  }
  const paths = new Map<string, string>([[rootRunId, ""]]);
  const visit = (parentId: string) => {
    const kids = [...(children.get(parentId) ?? [])].sort((x, y) => (x.startedAt < y.startedAt ? -1 : x.startedAt > y.startedAt ? 1 : x.runId < y.runId ? -1 : 1));
    const seen = new Map<string, number>();
    for (const kid of kids) {
      const logical = kid.runId.startsWith(`${parentId}.`) ? kid.runId.slice(parentId.length + 1).replace(UUID_SUFFIX, "") : kid.agentName;
      const ordinal = (seen.get(logical) ?? 0) + 1;
      seen.set(logical, ordinal);
      paths.set(kid.runId, `${paths.get(parentId) ?? ""}.${logical}#${ordinal}`);
      visit(kid.runId);
    }
  };
  visit(rootRunId);
  return paths;
}

/** A ledger event may carry `replayed: true` (tape-contract.md); the event union does not declare it. */
function eventReplayed(event: RunEvent): boolean {
  return (event as { replayed?: unknown }).replayed === true;
}

function toolCallsText(message: Extract<ChatMessage, { role: "assistant" }> | undefined): string {
  return (message?.tool_calls ?? []).map((c) => `${c.function.name}(${canonicalJson(c.function.arguments)})`).join("\n");
}

/** What a step may carry beyond its event's: absent ones are null (replayed: the event's flag). */
type StepExtra = Partial<Pick<RunStep, "group" | "spanId" | "tokens" | "cost" | "latencyMs" | "replayed" | "edited">>;
const NO_EXTRA: StepExtra = {};

/** One run's own steps, in event order. */
export function runSteps(run: LedgerRun, path: string, prices: PriceBook): RunStep[] {
  const steps: RunStep[] = [];
  const okInferences = run.spans.filter((s) => s.kind === "inference" && s.status === "ok");
  const toolSpans = new Map(run.spans.filter((s) => s.kind === "tool" && s.callId !== null).map((s) => [s.callId!, s]));
  const argumentsOf = new Map<string, string>();
  let inference = 0;
  // One object literal per step, no spreads: a 5,000-span pair builds ~6,700 steps per compare read.
  const push = (event: RunEvent, kind: RunStep["kind"], name: string, fields: Record<string, string>, extra: StepExtra = NO_EXTRA) =>
    steps.push({
      kind,
      path,
      agent: run.agentName,
      name,
      fields,
      group: extra.group ?? null,
      runId: run.runId,
      spanId: extra.spanId ?? null,
      seq: event.seq,
      at: event.at,
      tokens: extra.tokens ?? null,
      cost: extra.cost ?? null,
      latencyMs: extra.latencyMs ?? null,
      replayed: extra.replayed ?? eventReplayed(event),
      edited: extra.edited,
    });
  for (const event of run.events) {
    switch (event.type) {
      case "run_started":
        push(event, "task", "", { task: event.task });
        break;
      case "user_message":
        push(event, "user_message", "", { text: event.content });
        break;
      case "inference_completed": {
        const span = okInferences[inference];
        const message = run.assistantMessages[inference];
        inference++;
        const usage: TokenUsage = event.usage;
        const replayed = eventReplayed(event) || span?.replayed === true;
        push(event, "model_call", "", { model: event.model, text: message?.content ?? "", toolCalls: toolCallsText(message) }, { spanId: span?.id ?? null, tokens: usage, cost: costAt(prices, event.model, usage, Date.parse(event.startedAt ?? event.at)), latencyMs: event.latencyMs, replayed, edited: event.edited });
        break;
      }
      case "tool_call_started":
        argumentsOf.set(event.callId, event.arguments);
        break;
      case "tool_call_completed": {
        const span = toolSpans.get(event.callId);
        const fields = { arguments: canonicalJson(argumentsOf.get(event.callId) ?? ""), outcome: event.outcome, result: event.result };
        // Tool calls of one model answer may run in parallel: one group per run and iteration.
        push(event, "tool_call", event.tool, fields, { group: `${run.runId}#${event.iteration}`, spanId: span?.id ?? null, latencyMs: event.durationMs, replayed: eventReplayed(event) || span?.replayed === true, edited: event.edited });
        break;
      }
      case "routing_decided": {
        const d = event.decision;
        push(event, "routing", `attempt ${d.attempt}`, { chosen: d.chosen, target: d.target, confidence: String(d.confidence), fallbackTaken: String(d.fallbackTaken), reason: d.reason });
        break;
      }
      case "handoff":
        push(event, "handoff", "", { from: event.from, to: event.to, context: event.context, reason: event.reason });
        break;
      case "sub_agent_message":
        push(event, "sub_agent_message", event.agentName, { message: event.message });
        break;
      case "sub_agent_reply":
        push(event, "sub_agent_reply", event.agentName, { response: event.response, complete: String(event.isComplete) });
        break;
      case "plan_proposed":
        push(event, "plan_proposed", `attempt ${event.attempt}`, { plan: canonicalJson(JSON.stringify(event.plan)) });
        break;
      case "plan_node_finished":
        push(event, "plan_node", event.nodeId, { status: event.status, ...(event.reason ? { reason: event.reason } : {}) }, { tokens: event.usage ?? null });
        break;
      case "run_completed":
        push(event, "final", "", { status: "completed", output: event.output, ...(event.data !== undefined ? { data: canonicalJson(JSON.stringify(event.data)) } : {}) });
        break;
      case "run_failed":
        push(event, "final", "", { status: "failed", reason: event.reason, message: event.message });
        break;
      case "run_cancelled":
        push(event, "final", "", { status: "cancelled", message: event.message });
        break;
      default:
        break;
    }
  }
  return steps;
}

/** For each conversation a run opened (a child run id), the index of the step just after its first message. */
function messageSteps(run: LedgerRun, own: readonly RunStep[]): Map<string, number> {
  const opened = new Map<number, string>();
  for (const event of run.events) if (event.type === "sub_agent_message" && event.turn === 1) opened.set(event.seq, event.conversationId);
  const after = new Map<string, number>();
  if (opened.size === 0) return after;
  own.forEach((step, i) => {
    const conversation = step.kind === "sub_agent_message" ? opened.get(step.seq) : undefined;
    if (conversation !== undefined && !after.has(conversation)) after.set(conversation, i + 1);
  });
  return after;
}

/**
 * The steps of a whole run tree in causal order (see the file comment), each with its fields as compared
 * (`norm`: the tree's run ids as their places, other generated ids and timestamps taken out; normalise.ts).
 */
export function treeSteps(runs: readonly LedgerRun[], rootRunId: string, prices: PriceBook): RunStep[] {
  const paths = runPaths(runs, rootRunId);
  const normalise = treeNormaliser(paths);
  const withNorm = (steps: RunStep[]) => {
    for (const step of steps) {
      const norm = normalisedFields(step.fields, normalise);
      if (norm) step.norm = norm;
    }
    return steps;
  };
  const byParent = new Map<string, LedgerRun[]>();
  const byId = new Map(runs.map((r) => [r.runId, r]));
  for (const run of runs) {
    if (run.parentRunId === null || run.runId === rootRunId || !byId.has(run.parentRunId)) continue;
    const siblings = byParent.get(run.parentRunId);
    if (siblings) siblings.push(run);
    else byParent.set(run.parentRunId, [run]);
  }
  const build = (run: LedgerRun): RunStep[] => {
    const own = runSteps(run, paths.get(run.runId) ?? "", prices);
    const kids = byParent.get(run.runId) ?? [];
    if (kids.length === 0) return own;
    const afterMessage = messageSteps(run, own);
    // Where each child goes: after the parent's steps that happened before it started, and never before the
    // parent's message that opened its conversation. The engine starts the child, then records the message, so
    // the child's first event may carry an earlier time than the message: by time alone, two identical runs
    // placed their children on either side of it and differed by a step.
    const placed = kids.map((kid) => {
      const start = kid.events[0]?.at ?? kid.startedAt;
      let at = 0;
      while (at < own.length && own[at]!.at <= start) at++;
      at = Math.max(at, afterMessage.get(kid.runId) ?? 0);
      return { at, path: paths.get(kid.runId) ?? "", steps: build(kid) };
    });
    // Children placed at the same point ran side by side: ordered by path, not by timing.
    placed.sort((x, y) => x.at - y.at || (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
    const out: RunStep[] = [];
    let next = 0;
    for (const p of placed) {
      while (next < p.at) out.push(own[next++]!);
      out.push(...p.steps);
    }
    while (next < own.length) out.push(own[next++]!);
    return out;
  };
  const root = byId.get(rootRunId);
  return root ? withNorm(build(root)) : [];
}
