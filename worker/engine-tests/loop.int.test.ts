// The agentic loop on a real Temporal server: tools, parallel calls, history,
// events and trace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import type { RunEvent, TraceNode } from "../../lib/contract/types";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness({ policy: { exemptTools: ["ledger_transfer"] } });
});
afterAll(async () => h?.stop());

describe("agentic loop", () => {
  it("completes a run with tools, running the calls of one response in parallel", async () => {
    const { runId } = await h.engine.startRun({
      graph: singleAgentGraph({ tools: ["ledger_transfer", "calculator"] }),
      task: [
        'tool ledger_transfer {"from_account":"operating","to_account":"savings","amount":1,"hold_ms":600} && tool ledger_transfer {"from_account":"savings","to_account":"refunds","amount":2,"hold_ms":600}',
        'tool calculator {"expression":"6*7"}',
        "answer: all three tools ran",
      ].join("\n"),
    });
    expect(runId).toMatch(/^main-[0-9a-f-]{36}$/);
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("all three tools ran");
    expect(summary.iteration).toBe(3);
    expect(summary.usage.inputTokens).toBeGreaterThan(0);

    const events = await h.engine.getEvents(runId);
    const started = events.filter((e): e is Extract<RunEvent, { type: "tool_call_started" }> => e.type === "tool_call_started" && e.tool === "ledger_transfer");
    const completed = events.filter((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed" && e.tool === "ledger_transfer");
    expect(completed.map((e) => e.outcome)).toEqual(["ok", "ok"]);
    // Parallel: the later start comes before the earlier end.
    const latestStart = Math.max(...started.map((e) => Date.parse(e.at)));
    const earliestEnd = Math.min(...completed.map((e) => Date.parse(e.at)));
    expect(latestStart, "the two transfers of one response should overlap in time").toBeLessThan(earliestEnd);
    expect(completed.every((e) => e.durationMs >= 600)).toBe(true);

    // Events are dense and ordered; "since N" returns the tail.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const tail = await h.engine.getEvents(runId, events.length - 2);
    expect(tail.map((e) => e.seq)).toEqual([events.length - 1, events.length]);
    const inference = events.find((e) => e.type === "inference_completed");
    expect(inference).toMatchObject({ usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) }, latencyMs: expect.any(Number), attempts: 1 });
    expect(events.at(-1)?.type).toBe("run_completed");
  });

  it("keeps the history in OpenAI chat format", async () => {
    const { runId } = await h.engine.startRun({
      graph: singleAgentGraph({ tools: ["calculator", "current_time"], systemPrompt: "Serve {{context.customer.name}}." }),
      task: 'tool calculator {"expression":"1+1"} && tool current_time {"time_zone":"UTC"}',
      context: { customer: { name: "Ada" } },
    });
    await waitForStatus(h.engine, runId, ["completed"]);
    const history = await h.engine.getHistory(runId);
    expect(history.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "assistant"]);
    expect(history[0]).toEqual({ role: "system", content: "Serve Ada." });
    const call = history[2];
    if (call?.role !== "assistant") throw new Error("expected an assistant message");
    expect(call.tool_calls?.map((c) => c.function.name)).toEqual(["calculator", "current_time"]);
    expect(call.tool_calls?.[0]).toMatchObject({ type: "function", function: { arguments: '{"expression":"1+1"}' } });
    const result = history[3];
    expect(result).toMatchObject({ role: "tool", name: "calculator", tool_call_id: call.tool_calls?.[0]?.id });
    expect(JSON.parse(result?.role === "tool" ? result.content : "{}")).toEqual({ expression: "1+1", result: 2 });
  });

  it("exposes a trace tree: run → iteration → inference / tool spans", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator"] }), task: 'tool calculator {"expression":"2^10"}' });
    await waitForStatus(h.engine, runId, ["completed"]);
    const [root] = await h.engine.getTrace(runId);
    expect(root).toMatchObject({ kind: "run", name: "main" });
    // After the answer the run waits for a follow-up: a timer span after the iterations.
    const iterations = root?.children.filter((s) => s.kind !== "timer") ?? [];
    expect(iterations.map((s) => s.kind)).toEqual(["iteration", "iteration"]);
    const kinds = (node: TraceNode | undefined) => node?.children.map((c) => c.kind);
    expect(kinds(iterations[0])).toEqual(["inference", "tool"]);
    expect(kinds(iterations[1])).toEqual(["inference"]);
    const inference = iterations[0]?.children[0];
    expect(inference?.tokens?.outputTokens).toBeGreaterThan(0);
    expect(inference?.attempts).toBe(1);
    expect(iterations.every((s) => s.status === "ok" && s.endedAt !== null)).toBe(true);
  });

  it("records the follow-up window on the trace: a timer span with its deadline that fires and closes the run", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}, { followUpWindowSeconds: 1 }), task: "answer: done" });
    const [root] = await eventually(() => h.engine.getTrace(runId), ([run]) => run?.endedAt != null, 20_000, "the run span closed after the follow-up window");
    const timer = root?.children.at(-1);
    expect(timer, "the wait is the run's last child").toMatchObject({ kind: "timer", name: "follow-up window", status: "ok", attributes: { timer: "follow_up_window", timeoutSeconds: 1, ended: "fired" } });
    const waited = Date.parse(timer?.endedAt ?? "") - Date.parse(timer?.startedAt ?? "");
    expect(waited, "the timer ran its full second").toBeGreaterThanOrEqual(1000);
    expect(Date.parse(String(timer?.attributes?.deadline)), "the deadline is start + window").toBe(Date.parse(timer?.startedAt ?? "") + 1000);
  });

  it("ends the follow-up timer span with the message that interrupted it", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}, { followUpWindowSeconds: 30 }), task: "answer: first" });
    await waitForStatus(h.engine, runId, ["completed"]);
    const waiting = await eventually(() => h.engine.getTrace(runId), ([run]) => run?.children.some((s) => s.kind === "timer") ?? false, 10_000, "the follow-up timer span");
    expect(waiting[0]?.children.find((s) => s.kind === "timer")).toMatchObject({ status: "running", endedAt: null });
    await h.engine.sendMessage(runId, "answer: second");
    const [root] = await eventually(() => h.engine.getTrace(runId), ([run]) => (run?.children.filter((s) => s.kind === "timer").length ?? 0) >= 2, 20_000, "a second follow-up window");
    const timers = root?.children.filter((s) => s.kind === "timer") ?? [];
    expect(timers[0], "the first window ended by the follow-up").toMatchObject({ status: "ok", attributes: { ended: "message" } });
    await h.engine.cancelRun(runId);
    const [cancelled] = await eventually(() => h.engine.getTrace(runId), ([run]) => run?.endedAt != null, 20_000, "the cancelled run span closed");
    expect(cancelled?.children.filter((s) => s.kind === "timer").at(-1), "a cancelled wait does not stay open").toMatchObject({ status: "error", attributes: { ended: "cancelled" } });
  });

  it("streams events as they happen and lists the run", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator"] }), task: 'think 100\ntool calculator {"expression":"3*3"}\nanswer: nine' });
    const streamed = [];
    for await (const event of h.engine.streamRun(runId, { intervalMs: 50 })) streamed.push(event);
    expect(streamed.map((e) => e.seq)).toEqual(streamed.map((_, i) => i + 1));
    expect(streamed.at(-1)).toMatchObject({ type: "run_completed", output: "nine" });
    expect(streamed).toEqual(await h.engine.getEvents(runId));
    const runs = await eventually(() => h.engine.listRuns({ entryAgent: "main" }), (list) => list.some((r) => r.runId === runId), 10_000, "the run in the list");
    expect(runs.find((r) => r.runId === runId)).toMatchObject({ entryAgent: "main", parentRunId: null });
  });

  it("retries a flaky model and reports the attempts", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}), task: "flaky 2\nanswer: third time lucky" });
    const summary = await waitForStatus(h.engine, runId, ["completed"], 30_000);
    expect(summary.output).toBe("third time lucky");
    const events = await h.engine.getEvents(runId);
    expect(events.find((e) => e.type === "inference_completed")).toMatchObject({ attempts: 3 });
    // The inference span says why it was retried: the last failed attempt's message.
    const flat = (nodes: TraceNode[]): TraceNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
    const inference = flat(await h.engine.getTrace(runId)).find((s) => s.kind === "inference");
    expect(inference?.attempts).toBe(3);
    expect(inference?.attributes?.retryReason, "the reason names attempt 2's failure").toBe("attempt 2 failed: demo/test simulated a transient failure (attempt 2 of flaky 2); retried");
  });
});
