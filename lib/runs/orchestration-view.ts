// How the run page words what orchestration did: routing decisions, handoffs,
// answers rejected by their schema, and a tool call's validation. Pure and
// browser-safe; the trace's details panel and timeline markers render these.
import type { FailureDetails, RoutingRecord, RunEvent, TraceSpan } from "../contract/types";
import { plural } from "../text/plural";

/** The events the run page marks on its timeline and conversation: each a moment of the run as a whole. */
export const MARKER_EVENT_TYPES = ["continued_as_new", "user_message", "turn_interrupted", "handoff", "routing_decided", "output_invalid"] as const satisfies readonly RunEvent["type"][];

export type MarkerEvent = Extract<RunEvent, { type: (typeof MARKER_EVENT_TYPES)[number] }>;

export function isMarkerEvent(event: RunEvent): event is MarkerEvent {
  return (MARKER_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** One labelled fact of a details panel. */
export interface Fact {
  label: string;
  value: string;
  /** A fact that should stand out (a task below the routing threshold, a failed check). */
  emphasis?: boolean;
}

/** 0.42 → "0.42"; confidences and thresholds are fractions in [0, 1]. */
function fraction(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(Math.round(value * 1000) / 1000);
}

/**
 * What a routing decision did, as one sentence that cannot contradict itself:
 * routed with enough confidence; below the threshold → the router's fallback,
 * or the graph's default agent; or below it with no one else to take the task.
 */
export function routingOutcome(decision: RoutingRecord): string {
  const confidence = `confidence ${fraction(decision.confidence)}`;
  const threshold = `the threshold ${fraction(decision.threshold)}`;
  if (decision.confidence >= decision.threshold) return `${confidence} meets ${threshold} → ${decision.chosen}`;
  const below = `${confidence} is below ${threshold}`;
  if (!decision.fallbackTaken) return `${below}, and no fallback or default agent can take it → the target ${decision.chosen} anyway`;
  // The record names the router's fallback only when it was usable; a different chosen agent is the router's default.
  if (decision.fallback !== null && decision.fallback === decision.chosen) return `${below} → fallback ${decision.chosen}, named by ${decision.router}`;
  return `${below} → default agent ${decision.chosen}`;
}

/** A routing decision as facts: what happened (one sentence), then who was named, how sure, and why. */
export function routingFacts(decision: RoutingRecord): Fact[] {
  const below = decision.confidence < decision.threshold;
  return [
    { label: "outcome", value: routingOutcome(decision), emphasis: below },
    { label: "target", value: decision.target },
    { label: "confidence", value: `${fraction(decision.confidence)}${below ? " (below the threshold)" : ""}`, emphasis: below },
    { label: "threshold", value: fraction(decision.threshold) },
    { label: "reason", value: decision.reason },
    { label: "fallback named", value: decision.fallback ?? "none" },
    { label: "chosen", value: decision.chosen },
    { label: "attempt", value: String(decision.attempt) },
  ];
}

/** "front-desk → refund-specialist: the customer wants a refund". */
export function handoffLine(handoff: { from: string; to: string; reason: string }): string {
  return `${handoff.from} → ${handoff.to}${handoff.reason ? `: ${handoff.reason}` : ""}`;
}

const CONTEXT_LABELS: Record<Extract<RunEvent, { type: "handoff" }>["context"], string> = {
  summary: "a summary of the conversation",
  recent: "the most recent messages",
  full: "the full transcript",
};

export function handoffFacts(event: Extract<RunEvent, { type: "handoff" }>): Fact[] {
  return [
    { label: "from", value: event.from },
    { label: "to", value: event.to },
    { label: "reason", value: event.reason },
    { label: "context passed", value: CONTEXT_LABELS[event.context] ?? event.context },
    { label: "handoff depth", value: String(event.depth) },
  ];
}

/** What followed an answer that failed its schema. */
export function outputInvalidOutcome(event: Extract<RunEvent, { type: "output_invalid" }>): string {
  return event.repairing ? "a repair was requested" : "no repair followed: the run fails (validation_error)";
}

/** The one-line title of a timeline marker. */
export function markerTitle(event: MarkerEvent): string {
  switch (event.type) {
    case "continued_as_new":
      return `continued as new (generation ${event.generation}, history ${event.historyLength} events)`;
    case "user_message":
      return "follow-up message";
    case "turn_interrupted":
      return `turn ${event.turn} interrupted by a new message${event.withdrawnApprovals.length ? ` (${plural(event.withdrawnApprovals.length, "approval")} withdrawn)` : ""}`;
    case "handoff":
      return `handoff ${handoffLine(event)}`;
    case "routing_decided":
      return `routed to ${event.decision.chosen} (attempt ${event.decision.attempt}): ${routingOutcome(event.decision)}`;
    case "output_invalid":
      return `answer failed its schema (${plural(event.errors.length, "error")}); ${outputInvalidOutcome(event)}`;
  }
}

/** Marker line style by event type (Tailwind border classes). */
export const MARKER_STYLES: Record<MarkerEvent["type"], string> = {
  continued_as_new: "border-dashed border-fuchsia-500",
  user_message: "border-dotted border-indigo-400",
  turn_interrupted: "border-dashed border-amber-500",
  handoff: "border-solid border-orange-400",
  routing_decided: "border-solid border-fuchsia-400",
  output_invalid: "border-dotted border-red-500",
};

/** A tool call's `validation_ok` attribute as words, or null when the call was not validated. */
export function validationNote(attributes: TraceSpan["attributes"]): { ok: boolean; text: string } | null {
  const value = attributes?.validation_ok;
  if (typeof value !== "boolean") return null;
  return { ok: value, text: value ? "passed its schema" : "failed its schema" };
}

/** Whether a failure carries anything to show beyond its message. */
export function hasFailureDetails(details: FailureDetails | undefined): details is FailureDetails {
  return Boolean(details && ((details.errors?.length ?? 0) > 0 || details.rawOutput !== undefined || (details.attempts?.length ?? 0) > 0));
}

/** The page's markers: those read with the page and those the live tail brought since, each once, in sequence order. */
export function mergeMarkers(first: readonly MarkerEvent[], later: readonly MarkerEvent[]): MarkerEvent[] {
  const bySeq = new Map<number, MarkerEvent>();
  for (const event of [...first, ...later]) bySeq.set(event.seq, event);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** Span attributes a routing or handoff span repeats from its event: hidden from the generic list when the event's facts are shown. */
const ATTRIBUTES_OF_EVENT: Partial<Record<RunEvent["type"], readonly string[]>> = {
  routing_decided: ["target", "confidence", "threshold", "reason", "fallback", "fallbackTaken", "chosen", "attempt"],
  handoff: ["from", "to", "reason", "depth", "context"],
};

/** Whether the details panel should leave out this span attribute, because one of the shown events already says it. */
export function repeatsEvent(attribute: string, kind: TraceSpan["kind"], events: readonly RunEvent[]): boolean {
  const eventType = kind === "routing" ? "routing_decided" : kind === "handoff" ? "handoff" : null;
  if (!eventType || !events.some((e) => e.type === eventType)) return false;
  return ATTRIBUTES_OF_EVENT[eventType]?.includes(attribute) ?? false;
}
