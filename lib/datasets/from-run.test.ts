import { describe, expect, it } from "vitest";
import type { RunEvent } from "../contract/types";
import { editedEventStep, itemFromRun, type EditedEvent, type RecordedApproval, type RecordedRunTree } from "./from-run";

let seq = 0;
const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
function ev(second: number, body: DistributiveOmit<RunEvent, "seq" | "at">): RunEvent {
  return { ...body, seq: ++seq, at: at(second) } as RunEvent;
}
/** A call started at `second` and completed `took` seconds later. */
const call = (second: number, callId: string, tool: string, args: Record<string, unknown>, result: string, outcome: "ok" | "error" | "rejected" = "ok", took = 1) => [
  ev(second, { type: "tool_call_started", iteration: 1, callId, tool, arguments: JSON.stringify(args) }),
  ev(second + took, { type: "tool_call_completed", iteration: 1, callId, tool, outcome, durationMs: 5, attempts: 1, result }),
];

const root = { id: "run-root", task: "Refund order 7", context: '{"orderId":7}', status: "completed", output: "Refunded", outputData: { refunded: true }, planOutcome: null };
const tree = (over: Partial<RecordedRunTree> = {}): RecordedRunTree => ({ root, images: [], runs: [], decisions: new Map<string, RecordedApproval>(), ...over });

describe("itemFromRun", () => {
  it("maps the task, context and images as input and the answer and typed answer as expectations", () => {
    const image = { attachmentId: `img_${"a".repeat(32)}`, mediaType: "image/png" as const, width: 1, height: 1, bytes: 10 };
    expect(itemFromRun(tree({ images: [image] }))).toEqual({
      input: { task: "Refund order 7", context: { orderId: 7 }, images: [image] },
      expected: { output: "Refunded", outputData: { refunded: true } },
      tape: [],
      tags: [],
      source: { runId: "run-root" },
    });
  });

  it("orders the tree's calls by time, tapes each result with its recorded decision, and keeps engine tools off the tape", () => {
    const runs = [
      { runId: "run-root", events: [...call(1, "c1", "lookup_order", { orderId: 7 }, '{"status":"shipped"}'), ...call(3, "c2", "message_agent", { agent: "payer" }, "paid", "ok", 5), ...call(9, "c9", "return", { answer: 1 }, "")] },
      { runId: "run-payer", events: [...call(4, "p1", "ledger_transfer", { amount: 6 }, '{"ok":true}'), ...call(6, "p2", "ledger_transfer", { amount: 600 }, "Rejected: too much", "rejected")] },
    ];
    const decisions = new Map<string, RecordedApproval>([
      ["run-payer:p1", { status: "approved", reason: null, editedArguments: { amount: 5 }, decidedBy: "ana@zap.local" }],
      ["run-payer:p2", { status: "rejected", reason: "too much", editedArguments: null, decidedBy: "ana@zap.local" }],
    ]);
    const item = itemFromRun(tree({ runs, decisions }));
    expect(item.expected.trajectory).toEqual([
      { tool: "lookup_order", arguments: { orderId: 7 } },
      { tool: "ledger_transfer", arguments: { amount: 6 } },
      { tool: "ledger_transfer", arguments: { amount: 600 } },
      { tool: "message_agent", arguments: { agent: "payer" } },
    ]);
    expect(item.tape).toEqual([
      { kind: "tool_call", tool: "lookup_order", arguments: { orderId: 7 }, outcome: "ok", result: '{"status":"shipped"}' },
      { kind: "tool_call", tool: "ledger_transfer", arguments: { amount: 6 }, outcome: "ok", result: '{"ok":true}', approval: { approved: true, reason: null, editedArguments: { amount: 5 }, decidedBy: "ana@zap.local" } },
      { kind: "tool_call", tool: "ledger_transfer", arguments: { amount: 600 }, outcome: "rejected", result: "Rejected: too much", approval: { approved: false, reason: "too much", editedArguments: null, decidedBy: "ana@zap.local" } },
    ]);
  });

  it("expects the router's first choice and whether the fallback was taken, and the plan's cards, size and outcome", () => {
    const decision = { router: "triage", attempt: 1, target: "billing", confidence: 0.4, reason: "money", fallback: "support", chosen: "support", fallbackTaken: true, threshold: 0.5 };
    const plan = { nodes: [{ id: "a", agent: "research", objective: "x", dependsOn: [] }, { id: "b", agent: "writer", objective: "y", dependsOn: ["a"] }, { id: "c", agent: "research", objective: "z", dependsOn: [] }] };
    const runs = [
      {
        runId: "run-root",
        events: [ev(1, { type: "routing_decided", decision }), ev(2, { type: "routing_decided", decision: { ...decision, attempt: 2, target: "sales", fallbackTaken: false } }), ev(3, { type: "plan_proposed", plan, attempt: 1 })],
      },
    ];
    const item = itemFromRun(tree({ root: { ...root, planOutcome: "partially_failed" }, runs }));
    expect(item.expected.routing).toEqual({ target: "billing", fallback: true });
    expect(item.expected.plan).toEqual({ cards: ["research", "writer"], nodeCount: 3, outcome: "partially_failed" });
  });

  it("expects no answer of a run that did not complete, and reads a broken context as empty", () => {
    const item = itemFromRun(tree({ root: { ...root, status: "failed", context: "{not json" } }));
    expect(item.expected).toEqual({});
    expect(item.input.context).toEqual({});
  });
});

describe("editedEventStep", () => {
  const mark = { by: "ana@zap.local", at: at(9) };
  const model = ev(9, { type: "inference_completed", iteration: 2, model: "demo/helper", usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, toolCalls: 0, attempts: 0, edited: mark }) as EditedEvent;
  const tool = ev(9, { type: "tool_call_completed", iteration: 3, callId: "c7", tool: "calculator", outcome: "ok", durationMs: 0, attempts: 0, result: "5", edited: mark }) as EditedEvent;

  it("names what was written, the model or tool, the iteration and the call, so the step can be found in the trace", () => {
    expect(editedEventStep(model, "run-root", "run-root")).toBe("model output of inference demo/helper at iteration 2");
    expect(editedEventStep(tool, "run-root", "run-root")).toBe("result of tool calculator (call c7) at iteration 3");
  });

  it("names the run holding the step when it is another run of the tree than the one asked about", () => {
    expect(editedEventStep(model, "run-root.helper-1a2b3c4d", "run-root")).toBe("model output of inference demo/helper at iteration 2 in run run-root.helper-1a2b3c4d");
  });
});
