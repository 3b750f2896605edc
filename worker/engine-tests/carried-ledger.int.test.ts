// The model call carries the run ledger: what the run emitted since the last
// write is written by the inference activity while the model works, and the
// calls of ungated side-effect-free built-ins run inside it. These tests pin
// what that must never cost: a row, the order of rows, or the gate.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import type { RunEvent } from "../../lib/contract/types";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

async function allEvents(runId: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for (let since = 0; ; ) {
    const page = await h.engine.getEvents(runId, since);
    if (!page.length) return events;
    events.push(...page);
    since = page.at(-1)!.seq;
  }
}

describe("a model call that carries the ledger", () => {
  it("writes every event, message and span once and in order, also when the run is cancelled during the call", async () => {
    const steps = Array.from({ length: 4 }, (_, i) => `tool calculator {"expression":"${i}*2"} && tool search_notes {"query":"carry ${i}"}`).join("\n");
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator", "search_notes"] }), task: `think 400\n${steps}\nanswer: never` });
    // Cancel while a model call (400 ms each) holds the batch of the iteration before it.
    await eventually(() => allEvents(runId), (events) => events.filter((e) => e.type === "tool_call_completed").length >= 2, 20_000, "two tool calls done");
    await h.engine.cancelRun(runId);
    const summary = await waitForStatus(h.engine, runId, ["cancelled"]);

    const events = await allEvents(runId);
    expect(events.map((e) => e.seq), "dense and ordered").toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.seq).toBe(summary.lastEventSeq);
    expect(events.at(-1)?.type).toBe("run_cancelled");
    const started = events.filter((e) => e.type === "tool_call_started").map((e) => e.callId);
    const completed = events.filter((e) => e.type === "tool_call_completed").map((e) => e.callId);
    expect(completed, "every call that started before the cancel also ended").toEqual(started);

    const history = await h.engine.getHistory(runId);
    const row = await h.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(history).toHaveLength(row.messageCount);
    expect(history.filter((m) => m.role === "tool")).toHaveLength(completed.length);
    const trace = await h.engine.getTrace(runId);
    const toolSpans = JSON.stringify(trace).match(/"kind":"tool"/g) ?? [];
    expect(toolSpans.length, "one span per call").toBe(started.length);
  });

  it("never runs a call an approval gates inside the model call: the call waits for its decision", async () => {
    const approver = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    const graph = singleAgentGraph({
      tools: ["calculator", "search_notes"],
      approvalRules: [{ pattern: "search_notes", requiredRole: "approver", expiresInSeconds: 600 }],
    });
    const { runId } = await h.engine.startRun({ graph, task: 'tool calculator {"expression":"2+2"} && tool search_notes {"query":"gated"}\nanswer: done' });
    await waitForStatus(h.engine, runId, ["awaiting_approval"]);
    const events = await allEvents(runId);
    const done = events.filter((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
    expect(done.map((e) => e.tool), "the ungated call ran with the model call; the gated one waits").toEqual(["calculator"]);
    const [approval] = await h.engine.getPendingApprovals(runId);
    await h.engine.decideApproval(runId, { approvalId: approval!.id, approved: false, reason: "not now", decidedBy: { id: approver.id, email: approver.email, role: approver.role } });
    await waitForStatus(h.engine, runId, ["completed"]);
    const gated = (await allEvents(runId)).find((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed" && e.tool === "search_notes");
    expect(gated?.outcome).toBe("rejected");
    expect(gated?.attempts, "never executed").toBe(0);
  });
});
