import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../contract/types";
import { runPaths, treeSteps, type LedgerRun } from "./build-steps";
import { stepView } from "./wire";
import { EMPTY_PRICE_BOOK } from "../../pricing/price-book";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
type Body = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never;
function events(...bodies: [number, Body][]): RunEvent[] {
  return bodies.map(([s, body], i) => ({ ...body, seq: i + 1, at: at(s) }) as RunEvent);
}
function run(runId: string, parentRunId: string | null, agentName: string, startSec: number, evs: RunEvent[], extra: Partial<LedgerRun> = {}): LedgerRun {
  return { runId, parentRunId, agentName, startedAt: at(startSec), events: evs, spans: [], assistantMessages: [], ...extra };
}

describe("runPaths", () => {
  it("names children without their uuids, counting same-named siblings in start order", () => {
    const paths = runPaths(
      [
        { runId: "root", parentRunId: null, agentName: "triage", startedAt: at(0) },
        { runId: "root.billing-aaaaaaaa", parentRunId: "root", agentName: "billing", startedAt: at(2) },
        { runId: "root.billing-0b0b0b0b", parentRunId: "root", agentName: "billing", startedAt: at(5) },
        { runId: "root.route-1-refunds-12345678", parentRunId: "root", agentName: "refunds", startedAt: at(3) },
        { runId: "root.billing-aaaaaaaa.ledger-cccccccc", parentRunId: "root.billing-aaaaaaaa", agentName: "ledger", startedAt: at(4) },
        { runId: "elsewhere", parentRunId: "root", agentName: "helper", startedAt: at(6) },
      ],
      "root",
    );
    expect(Object.fromEntries(paths)).toEqual({
      root: "",
      "root.billing-aaaaaaaa": ".billing#1",
      "root.billing-0b0b0b0b": ".billing#2",
      "root.route-1-refunds-12345678": ".route-1-refunds#1",
      "root.billing-aaaaaaaa.ledger-cccccccc": ".billing#1.ledger#1",
      elsewhere: ".helper#1",
    });
  });
});

describe("treeSteps", () => {
  it("builds model and tool steps from events, spans and messages, with cost and the replayed mark", () => {
    const root = run(
      "r",
      null,
      "support",
      0,
      events(
        [0, { type: "run_started", agentName: "support", task: "pay 5", depth: 0 }],
        [1, { type: "inference_completed", iteration: 1, model: "demo/scripted", usage: { inputTokens: 10, outputTokens: 5 }, latencyMs: 40, toolCalls: 1, attempts: 1 }],
        [2, { type: "tool_call_started", iteration: 1, callId: "c1", tool: "transfer", arguments: '{"to":"b","amount":5}' }],
        [3, { type: "tool_call_completed", iteration: 1, callId: "c1", tool: "transfer", outcome: "ok", durationMs: 12, attempts: 1, result: "sent" }],
        [4, { type: "run_completed", output: "done" }],
      ),
      {
        spans: [
          { id: "s3", kind: "inference", status: "ok", callId: null, replayed: true },
          { id: "s4", kind: "tool", status: "ok", callId: "c1", replayed: false },
        ],
        assistantMessages: [{ role: "assistant", content: "paying", tool_calls: [{ id: "c1", type: "function", function: { name: "transfer", arguments: '{"amount":5,"to":"b"}' } }] }],
      },
    );
    const steps = treeSteps([root], "r", EMPTY_PRICE_BOOK);
    expect(steps.map((s) => `${s.kind}:${s.name}`)).toEqual(["task:", "model_call:", "tool_call:transfer", "final:"]);
    expect(steps[1]).toMatchObject({ spanId: "s3", replayed: true, tokens: { inputTokens: 10, outputTokens: 5 }, cost: 0, latencyMs: 40, fields: { text: "paying", toolCalls: 'transfer({"amount":5,"to":"b"})' } });
    // Arguments in canonical key order, so key order never counts as a difference.
    expect(steps[2]).toMatchObject({ spanId: "s4", replayed: false, latencyMs: 12, group: "r#1", fields: { arguments: '{"amount":5,"to":"b"}', outcome: "ok", result: "sent" } });
  });

  it("marks a fork's edited tool result and model output as edited (who, when), never as replayed, and the wire keeps the mark", () => {
    const mark = { by: "builder@zap.local", at: at(2) };
    const fork = run(
      "f",
      null,
      "support",
      0,
      events(
        [0, { type: "run_started", agentName: "support", task: "pay 5", depth: 0 }],
        [1, { type: "inference_completed", iteration: 1, model: "demo/scripted", usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 1, toolCalls: 1, attempts: 1, replayed: true }],
        [2, { type: "tool_call_started", iteration: 1, callId: "c1", tool: "calculator", arguments: "{}" }],
        [3, { type: "tool_call_completed", iteration: 1, callId: "c1", tool: "calculator", outcome: "ok", durationMs: 1, attempts: 1, result: "43", edited: mark }],
        [4, { type: "inference_completed", iteration: 2, model: "demo/scripted", usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 1, toolCalls: 0, attempts: 1, edited: mark }],
      ),
      { spans: [{ id: "s4", kind: "tool", status: "ok", callId: "c1", replayed: false }] },
    );
    const steps = treeSteps([fork], "f", EMPTY_PRICE_BOOK);
    expect(steps.map((s) => [s.kind, s.replayed, s.edited ?? null])).toEqual([
      ["task", false, null],
      ["model_call", true, null],
      ["tool_call", false, mark],
      ["model_call", false, mark],
    ]);
    expect(stepView(steps[2]!).edited, "the compare page gets the mark").toEqual(mark);
    expect(stepView(steps[1]!), "a recorded step carries none").not.toHaveProperty("edited");
  });

  it("puts a child run's steps after the parent step that started it, parallel children by path", () => {
    const root = run(
      "r",
      null,
      "triage",
      0,
      events(
        [0, { type: "run_started", agentName: "triage", task: "t", depth: 0 }],
        [1, { type: "sub_agent_message", conversationId: "r.b-11111111", agentName: "b", message: "hi b", turn: 1 }],
        [1, { type: "sub_agent_message", conversationId: "r.a-22222222", agentName: "a", message: "hi a", turn: 1 }],
        [9, { type: "run_completed", output: "done" }],
      ),
    );
    const childB = run("r.b-11111111", "r", "b", 2, events([2, { type: "run_started", agentName: "b", task: "hi b", depth: 1 }], [3, { type: "run_completed", output: "from b" }]));
    const childA = run("r.a-22222222", "r", "a", 2, events([2, { type: "run_started", agentName: "a", task: "hi a", depth: 1 }], [4, { type: "run_completed", output: "from a" }]));
    const steps = treeSteps([childB, root, childA], "r", EMPTY_PRICE_BOOK);
    expect(steps.map((s) => `${s.path}:${s.kind}`)).toEqual([":task", ":sub_agent_message", ":sub_agent_message", ".a#1:task", ".a#1:final", ".b#1:task", ".b#1:final", ":final"]);
  });

  it("puts a conversation's steps after the message that opened it, even when the child's first event is timed before it", () => {
    const root = run(
      "r",
      null,
      "triage",
      0,
      events(
        [0, { type: "run_started", agentName: "triage", task: "t", depth: 0 }],
        // The engine starts the child, then records the message: here the child's first event is a second earlier.
        [3, { type: "sub_agent_message", conversationId: "r.billing-11111111", agentName: "billing", message: "hi", turn: 1 }],
        [9, { type: "run_completed", output: "done" }],
      ),
    );
    const child = run("r.billing-11111111", "r", "billing", 2, events([2, { type: "run_started", agentName: "billing", task: "hi", depth: 1 }], [4, { type: "run_completed", output: "ok" }]));
    expect(treeSteps([root, child], "r", EMPTY_PRICE_BOOK).map((s) => `${s.path}:${s.kind}`)).toEqual([":task", ":sub_agent_message", ".billing#1:task", ".billing#1:final", ":final"]);
  });

  it("gives an unknown model's call no cost, and a failed run a final step with its reason", () => {
    const root = run(
      "r",
      null,
      "x",
      0,
      events(
        [0, { type: "inference_completed", iteration: 1, model: "acme/unknown", usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, toolCalls: 0, attempts: 1 }],
        [1, { type: "run_failed", reason: "step_limit_exceeded", message: "too many" }],
      ),
    );
    const steps = treeSteps([root], "r", EMPTY_PRICE_BOOK);
    expect(steps[0]!.cost).toBeNull();
    expect(steps[1]).toMatchObject({ kind: "final", fields: { status: "failed", reason: "step_limit_exceeded", message: "too many" } });
  });
});
