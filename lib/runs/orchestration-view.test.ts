import { describe, expect, it } from "vitest";
import type { RoutingRecord, RunEvent } from "../contract/types";
import { handoffFacts, handoffLine, hasFailureDetails, isMarkerEvent, markerTitle, mergeMarkers, outputInvalidOutcome, repeatsEvent, routingFacts, routingOutcome, validationNote, type MarkerEvent } from "./orchestration-view";

const at = "2026-01-01T00:00:00Z";
const decision: RoutingRecord = { router: "help-desk", attempt: 1, target: "billing", confidence: 0.42, reason: "mentions an invoice", fallback: "general", chosen: "general", fallbackTaken: true, threshold: 0.7 };
const facts = (list: { label: string; value: string }[]) => Object.fromEntries(list.map((f) => [f.label, f.value]));

describe("routingFacts", () => {
  it("names what happened, the target, confidence against the threshold, reason, the fallback named and the attempt", () => {
    expect(facts(routingFacts(decision))).toEqual({
      outcome: "confidence 0.42 is below the threshold 0.7 → fallback general, named by help-desk",
      target: "billing",
      confidence: "0.42 (below the threshold)",
      threshold: "0.7",
      reason: "mentions an invoice",
      "fallback named": "general",
      chosen: "general",
      attempt: "1",
    });
  });

  it("a confident decision without a fallback says so", () => {
    const shown = facts(routingFacts({ ...decision, confidence: 0.9, fallback: null, fallbackTaken: false, chosen: "billing", attempt: 2 }));
    expect(shown).toMatchObject({ outcome: "confidence 0.9 meets the threshold 0.7 → billing", confidence: "0.9", "fallback named": "none", chosen: "billing", attempt: "2" });
    expect(routingFacts({ ...decision, confidence: 1 }).find((f) => f.label === "confidence")?.emphasis).toBe(false);
  });

  it("never says a fallback was taken beside \"none named\"", () => {
    for (const record of [decision, { ...decision, fallback: null }, { ...decision, fallback: null, fallbackTaken: false, chosen: "billing" }]) {
      const shown = facts(routingFacts(record));
      expect(Object.keys(shown)).not.toContain("fallback taken");
      if (record.fallback === null) expect(shown.outcome).not.toMatch(/→ fallback/);
    }
  });
});

describe("routingOutcome: every outcome one true sentence", () => {
  it("routed with enough confidence", () => {
    expect(routingOutcome({ ...decision, confidence: 0.7, fallbackTaken: false, chosen: "billing" })).toBe("confidence 0.7 meets the threshold 0.7 → billing");
  });
  it("below the threshold → the fallback the router named", () => {
    expect(routingOutcome(decision)).toBe("confidence 0.42 is below the threshold 0.7 → fallback general, named by help-desk");
  });
  it("below the threshold, no fallback named → the default agent", () => {
    expect(routingOutcome({ ...decision, fallback: null })).toBe("confidence 0.42 is below the threshold 0.7 → default agent general");
  });
  it("below the threshold with no one else → the target anyway", () => {
    expect(routingOutcome({ ...decision, fallback: null, fallbackTaken: false, chosen: "billing" })).toBe("confidence 0.42 is below the threshold 0.7, and no fallback or default agent can take it → the target billing anyway");
  });
});

describe("handoffs", () => {
  const event: Extract<RunEvent, { type: "handoff" }> = { seq: 5, at, type: "handoff", from: "front-desk", to: "refund-specialist", reason: "wants a refund", depth: 1, context: "recent", messageIndex: 6 };
  it("reads as from → to: reason", () => {
    expect(handoffLine(event)).toBe("front-desk → refund-specialist: wants a refund");
    expect(handoffLine({ ...event, reason: "" })).toBe("front-desk → refund-specialist");
  });
  it("details name the context passed and the depth", () => {
    expect(facts(handoffFacts(event))).toMatchObject({ from: "front-desk", to: "refund-specialist", "context passed": "the most recent messages", "handoff depth": "1" });
  });
});

describe("output_invalid", () => {
  const event = (repairing: boolean): Extract<RunEvent, { type: "output_invalid" }> => ({ seq: 3, at, type: "output_invalid", iteration: 2, attempt: 1, errors: ["/total: must be number", "/vendor: required"], repairing });
  it("says whether a repair followed", () => {
    expect(outputInvalidOutcome(event(true))).toBe("a repair was requested");
    expect(outputInvalidOutcome(event(false))).toContain("validation_error");
  });
  it("marks the timeline with the error count and the outcome", () => {
    expect(markerTitle(event(true))).toBe("answer failed its schema (2 errors); a repair was requested");
  });
});

describe("markers", () => {
  const routed: MarkerEvent = { seq: 4, at, type: "routing_decided", decision };
  it("only run-level moments are markers", () => {
    expect(isMarkerEvent(routed)).toBe(true);
    expect(isMarkerEvent({ seq: 1, at, type: "iteration_started", iteration: 1 })).toBe(false);
    expect(markerTitle(routed)).toBe("routed to general (attempt 1): confidence 0.42 is below the threshold 0.7 → fallback general, named by help-desk");
  });
  it("marks an interrupted turn, with the approvals it withdrew", () => {
    const cut: MarkerEvent = { seq: 5, at, type: "turn_interrupted", turn: 2, message: "interrupted by a new message", withdrawnApprovals: ["a1", "a2"] };
    expect(isMarkerEvent(cut)).toBe(true);
    expect(markerTitle(cut)).toBe("turn 2 interrupted by a new message (2 approvals withdrawn)");
    expect(markerTitle({ ...cut, withdrawnApprovals: [] })).toBe("turn 2 interrupted by a new message");
  });
  it("merging the page's markers with the tail's keeps each event once, in sequence order", () => {
    const follow: MarkerEvent = { seq: 2, at, type: "user_message", content: "more" };
    expect(mergeMarkers([routed, follow], [routed, { ...follow, seq: 7 }]).map((m) => m.seq)).toEqual([2, 4, 7]);
  });
});

describe("validationNote and failure details", () => {
  it("shows validation_ok only when the span carries it", () => {
    expect(validationNote({ validation_ok: false })).toEqual({ ok: false, text: "failed its schema" });
    expect(validationNote({ validation_ok: true })?.ok).toBe(true);
    expect(validationNote({ validation_ok: "yes" })).toBeNull();
    expect(validationNote(undefined)).toBeNull();
  });
  it("a failure has details to show only when it carries errors, a raw answer or attempts", () => {
    expect(hasFailureDetails(undefined)).toBe(false);
    expect(hasFailureDetails({ errors: [] })).toBe(false);
    expect(hasFailureDetails({ rawOutput: "" })).toBe(true);
    expect(hasFailureDetails({ attempts: [{ agentName: "billing", reason: "tool_error" }] })).toBe(true);
  });
});

describe("repeatsEvent", () => {
  const routed: RunEvent = { seq: 4, at, type: "routing_decided", decision };
  it("hides a routing span's attributes the decision shows, and only when the decision is there", () => {
    expect(repeatsEvent("confidence", "routing", [routed])).toBe(true);
    expect(repeatsEvent("confidence", "routing", [])).toBe(false);
    expect(repeatsEvent("outcome", "routing", [routed])).toBe(false);
    expect(repeatsEvent("confidence", "tool", [routed])).toBe(false);
  });
  it("hides a handoff span's attributes its handoff event shows", () => {
    const handoff: RunEvent = { seq: 5, at, type: "handoff", from: "a", to: "b", reason: "r", depth: 1, context: "full", messageIndex: 3 };
    expect(repeatsEvent("to", "handoff", [handoff])).toBe(true);
    expect(repeatsEvent("to", "handoff", [routed])).toBe(false);
  });
});
