import { describe, expect, it } from "vitest";
import type { TraceSpanView } from "./schemas";
import { formatDateTime } from "../format/figures";
import { drawnSpans, drawnSubRunSpans, onTimeAxis, followUpDeadline, followUpWindowText, isAfterRun, runDurationMs, runTimes } from "./run-time";

const RUN = "run-1";
const t0 = Date.parse("2026-01-01T10:00:00Z");
const answeredAt = t0 + 280;
const header = { startedAt: new Date(t0).toISOString(), endedAt: new Date(answeredAt).toISOString() };
// The root span opened a few ms after the ledger's start, and is still open: the run waits for follow-ups.
const root: TraceSpanView = { id: "s0", parentId: null, kind: "run", name: "help-desk", status: "running", runId: RUN, startMs: t0 + 3, endMs: null };
const window: TraceSpanView = {
  id: "s9",
  parentId: "s0",
  kind: "timer",
  name: "follow-up window",
  status: "running",
  runId: RUN,
  startMs: answeredAt + 1,
  endMs: null,
  attributes: { timer: "follow_up_window", timeoutSeconds: 3600, deadline: new Date(answeredAt + 3_600_000).toISOString() },
};

describe("a run's duration", () => {
  it("is start → last answer once the run answered, whatever the clock says", () => {
    expect(runDurationMs(runTimes(header), t0 + 2100)).toBe(280);
  });
  it("grows with the clock while the run works", () => {
    expect(runDurationMs(runTimes({ ...header, endedAt: null }), t0 + 2100)).toBe(2100);
  });
});

describe("drawnSpans: the root bar is the run's time", () => {
  it("a run waiting for follow-ups: its root span spans start → answer and no longer runs", () => {
    const drawn = drawnSpans([root, window], RUN, runTimes(header));
    expect(drawn[0]).toMatchObject({ startMs: t0, endMs: answeredAt, status: "ok" });
    expect(drawn[1], "the window itself is left as it is").toBe(window);
    expect(runDurationMs(runTimes(header), Date.now()), "the header's number").toBe((drawn[0]?.endMs ?? 0) - (drawn[0]?.startMs ?? 0));
  });
  it("a run whose window closed an hour later still measures to its answer", () => {
    const closed = { ...root, status: "ok" as const, endMs: answeredAt + 3_600_000 };
    expect(drawnSpans([closed], RUN, runTimes(header))[0]).toMatchObject({ endMs: answeredAt, status: "ok" });
  });
  it("a working run's root keeps running, from the run's start", () => {
    expect(drawnSpans([root], RUN, runTimes({ ...header, endedAt: null }))[0]).toMatchObject({ startMs: t0, endMs: null, status: "running" });
  });
  it("a failed run's root keeps its error", () => {
    expect(drawnSpans([{ ...root, status: "error", endMs: answeredAt }], RUN, runTimes(header))[0]?.status).toBe("error");
  });
  it("hands back the same list when nothing changes, and leaves sub-runs' roots alone", () => {
    const same = [{ ...root, startMs: t0, endMs: answeredAt, status: "ok" as const }];
    expect(drawnSpans(same, RUN, runTimes(header))).toBe(same);
    const other = [{ ...root, runId: "run-1.child" }];
    expect(drawnSpans(other, RUN, runTimes(header))).toBe(other);
  });
});

describe("the follow-up window", () => {
  it("is after the run once the run answered, and never while it works", () => {
    expect(isAfterRun(window, runTimes(header))).toBe(true);
    expect(isAfterRun(window, runTimes({ ...header, endedAt: null }))).toBe(false);
    expect(isAfterRun({ ...window, attributes: { timer: "sub_agent_idle" } }, runTimes(header)), "a sub-agent's idle wait after its answer neither").toBe(true);
    expect(isAfterRun({ ...window, kind: "approval_wait" }, runTimes(header))).toBe(false);
  });
  it("is said as a window, to the minute", () => {
    const deadline = followUpDeadline(window.attributes);
    expect(deadline).toBe(new Date(answeredAt + 3_600_000).toISOString());
    expect(followUpWindowText(deadline ?? ""), "the product's one date-time format, 24-hour").toMatch(/^open for follow-ups until .+, \d{2}:\d{2}:\d{2}$/);
    expect(followUpWindowText(deadline ?? "")).toBe(`open for follow-ups until ${formatDateTime(answeredAt + 3_600_000)}`);
    expect(followUpDeadline({ timer: "sub_agent_idle", deadline: "2026-01-01T11:00:00Z" })).toBeNull();
    expect(followUpDeadline({ timer: "follow_up_window", deadline: "soon" })).toBeNull();
  });
});

describe("drawnSubRunSpans: a sub-agent that answered and waits for its parent", () => {
  const CHILD = "run-1.billing";
  const childRun: TraceSpanView = { id: "c0", parentId: null, kind: "run", name: "billing", status: "running", runId: CHILD, startMs: t0 + 50, endMs: null };
  const idle: TraceSpanView = { id: "c9", parentId: "c0", kind: "timer", name: "idle wait for the parent", status: "running", runId: CHILD, startMs: t0 + 200, endMs: null, attributes: { timer: "sub_agent_idle" } };
  it("ends its run bar where the wait began, not at the browser's now", () => {
    const drawn = drawnSubRunSpans([childRun, idle]);
    expect(drawn[0]).toMatchObject({ startMs: t0 + 50, endMs: t0 + 200, status: "ok" });
    expect(drawn[1], "the wait itself is left as it is").toBe(idle);
  });
  it("a sub-run at work (no open wait) keeps running, and the list is handed back as it is", () => {
    const working = [childRun, { ...idle, endMs: t0 + 300, status: "ok" as const }];
    expect(drawnSubRunSpans(working)).toBe(working);
  });
});

describe("onTimeAxis: what stretches the trace's time axis", () => {
  const idle: TraceSpanView = { id: "c9", parentId: "c0", kind: "timer", name: "idle wait for the parent", status: "running", runId: "run-1.billing", startMs: t0 + 200, endMs: null, attributes: { timer: "sub_agent_idle" } };
  it("not an open wait for a message, even one begun before the answer", () => {
    expect(onTimeAxis(idle, runTimes(header))).toBe(false);
    expect(onTimeAxis(window, runTimes(header))).toBe(false);
  });
  it("a wait that ended, and the run's work, do", () => {
    expect(onTimeAxis({ ...idle, endMs: t0 + 250 }, runTimes(header))).toBe(true);
    expect(onTimeAxis(root, runTimes(header))).toBe(true);
  });
});
