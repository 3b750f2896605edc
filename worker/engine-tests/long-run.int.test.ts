// A 300-iteration run continues as new, and its history, events and trace
// stay complete across the boundaries.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import type { TraceNode } from "../../lib/contract/types";
import { scaledWait } from "../../scripts/test-support/wait-scale";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

const ITERATIONS = 300;

describe("long runs", () => {
  it(`continues as new during a ${ITERATIONS}-iteration run without losing anything`, async () => {
    const { runId } = await h.engine.startRun({
      graph: singleAgentGraph({ tools: ["calculator"], maxIterations: 500 }, { continueAsNewAfterEvents: 250, tokenBudget: 100_000_000 }),
      task: `repeat ${ITERATIONS} tool calculator {"expression":"2*21"}\nanswer: finished the loop`,
    });
    const summary = await waitForStatus(h.engine, runId, ["completed"], 240_000);
    expect(summary.output).toBe("finished the loop");
    expect(summary.iteration).toBe(ITERATIONS + 1);
    expect(summary.generation, "the run should have continued as new at least once").toBeGreaterThanOrEqual(1);

    const history = await h.engine.getHistory(runId);
    expect(history.length).toBe(2 + ITERATIONS * 2 + 1);
    expect(history.filter((m) => m.role === "tool").length).toBe(ITERATIONS);

    // Pollers page through events with "since N"; sequence numbers stay dense.
    const events = [];
    for (let since = 0; ; ) {
      const page = await h.engine.getEvents(runId, since);
      if (page.length === 0) break;
      events.push(...page);
      since = page.at(-1)!.seq;
    }
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === "iteration_started").length).toBe(ITERATIONS + 1);
    expect(events.filter((e) => e.type === "tool_call_completed").length).toBe(ITERATIONS);
    expect(events.filter((e) => e.type === "run_started").length).toBe(1);
    expect(events.filter((e) => e.type === "continued_as_new").length).toBe(summary.generation);

    const [root] = await h.engine.getTrace(runId);
    const iterations = root?.children.filter((s: TraceNode) => s.kind === "iteration") ?? [];
    expect(iterations.length).toBe(ITERATIONS + 1);
    expect(iterations.every((s) => s.endedAt !== null)).toBe(true);
  }, scaledWait(300_000)); // its wait for the run allows 240 s (60 s cut it off at load 20); a hang detector, not a speed target
});
