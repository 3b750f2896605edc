import { describe, expect, it } from "vitest";
import { estimateTokens, liveCallSpan, liveOutput, openCalls } from "./live-call";
import type { TraceSpanView } from "./schemas";
import type { LiveCall } from "./stream-events";

const T = Date.parse("2026-11-29T10:00:00Z");
function span(id: string, parentId: string | null, kind: TraceSpanView["kind"], status: TraceSpanView["status"], attributes?: TraceSpanView["attributes"], runId = "r"): TraceSpanView {
  return { id, parentId, kind, name: kind, status, runId, startMs: T, endMs: status === "running" ? null : T + 10, ...(attributes ? { attributes } : {}) };
}
const call = (over: Partial<LiveCall> = {}): LiveCall => ({ runId: "r", iteration: 2, attempt: 1, agentName: "treasury", text: "streamed1 streamed2 ", done: false, ...over });

describe("liveCallSpan", () => {
  const spans = [
    span("run", null, "run", "running"),
    span("it1", "run", "iteration", "ok", { iteration: 1 }),
    span("m1", "it1", "inference", "ok"),
    span("it2", "run", "iteration", "running", { iteration: 2 }),
    span("m2", "it2", "inference", "running"),
  ];

  it("is the running model call of the text's iteration", () => {
    expect(liveCallSpan(openCalls(spans), call())?.id).toBe("m2");
  });

  it("stays on the call until the ledger closes it, even once the text is done", () => {
    expect(liveCallSpan(openCalls(spans), call({ done: true }))?.id).toBe("m2");
    const stored = spans.map((s) => (s.id === "m2" ? { ...s, status: "ok" as const, endMs: T + 10 } : s));
    expect(liveCallSpan(openCalls(stored), call({ done: true })), "stored: its recorded tokens count now").toBeNull();
  });

  it("never puts an earlier call's text on the next call", () => {
    expect(liveCallSpan(openCalls(spans), call({ iteration: 1, done: true }))).toBeNull();
  });

  it("takes a run's one running call with no iteration to go by only while the text is written; another run's call never", () => {
    const plan = [span("node", null, "inference", "running", undefined, "n")];
    expect(liveCallSpan(openCalls(plan), call({ runId: "n" }))?.id).toBe("node");
    expect(liveCallSpan(openCalls(plan), call({ runId: "n", done: true }))).toBeNull();
    expect(liveCallSpan(openCalls(plan), call())).toBeNull();
  });
});

describe("liveOutput", () => {
  it("carries the text and its estimated tokens, which grow with it", () => {
    const spans = [span("it2", null, "iteration", "running", { iteration: 2 }), span("m2", "it2", "inference", "running")];
    const early = liveOutput(openCalls(spans), call({ text: "streamed1 " }));
    const later = liveOutput(openCalls(spans), call({ text: "streamed1 streamed2 streamed3 " }));
    expect(early).toMatchObject({ runId: "r", spanId: "m2", text: "streamed1 " });
    expect(later?.tokens).toBeGreaterThan(early?.tokens ?? Infinity);
    expect(liveOutput(openCalls(spans), null)).toBeNull();
  });

  it("estimates about four characters a token, nothing for no text", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
  });
});
