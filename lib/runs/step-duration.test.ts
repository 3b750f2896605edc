import { describe, expect, it } from "vitest";
import { spanDurationMs, stepDurationMs } from "./step-duration";
import { drawnSpans, runDurationMs, runTimes } from "./run-time";
import type { TraceSpanView } from "./schemas";

describe("a step's duration", () => {
  it("is its span's end minus its start, to now while it runs", () => {
    expect(stepDurationMs({ startMs: 1_000, endMs: 1_024 })).toBe(24);
    expect(stepDurationMs({ startMs: 1_000, endMs: null }, 1_500), "still running: to now").toBe(500);
    expect(stepDurationMs({ startMs: 1_000, endMs: null }), "still running, no clock: no figure").toBeNull();
    expect(stepDurationMs({ startMs: 1_000, endMs: null }, 0), "a clock before the start (a page before it knows the time): no figure, never a negative one").toBeNull();
  });

  it("reads the same from a ledger span's ISO times", () => {
    expect(spanDurationMs({ startedAt: "2026-11-29T01:44:54.000Z", endedAt: "2026-11-29T01:44:54.286Z" })).toBe(286);
    expect(spanDurationMs({ startedAt: "2026-11-29T01:44:54.000Z", endedAt: null }, Date.parse("2026-11-29T01:45:00.000Z"))).toBe(6_000);
  });

  it("of a run's own span is the run's duration: a sub-run that answered is not still running while it waits for its parent", () => {
    // A sub-agent conversation answered 187 ms after it started, then waited 20 minutes for its parent: its run span stayed open.
    const start = Date.parse("2026-11-29T01:00:00.000Z");
    const times = runTimes({ startedAt: new Date(start).toISOString(), endedAt: new Date(start + 187).toISOString() });
    const spans: TraceSpanView[] = [
      { id: "s1", parentId: null, kind: "run", name: "billing", status: "running", runId: "sub", startMs: start, endMs: null },
      { id: "s2", parentId: "s1", kind: "timer", name: "idle wait for the parent", status: "running", runId: "sub", startMs: start + 187, endMs: null, attributes: { timer: "sub_agent_idle" } },
    ];
    const [run] = drawnSpans(spans, "sub", times);
    const now = start + 20 * 60_000 + 12_000;
    expect(run?.status, "the span says what the header says").toBe("ok");
    expect(stepDurationMs(run!, now), "the span's figure is the header's").toBe(runDurationMs(times, now));
    expect(runDurationMs(times, now)).toBe(187);
  });
});
