import { describe, expect, it } from "vitest";
import { judgeAnswer } from "./final-answer";
import { RunState } from "./run-state";
import { RunFailure } from "./run-failure";

const schema = { type: "object" };
const response = { content: null, toolCalls: [{ id: "r1", name: "return", arguments: "{}" }, { id: "t1", name: "calculator", arguments: "{}" }] };

describe("judgeAnswer", () => {
  it("accepts a valid answer and answers every call of the response", () => {
    const state = new RunState();
    const result = judgeAnswer(state, response, { source: "return", ok: true, data: { a: 1 }, raw: '{"a":1}', callId: "r1" }, schema);
    expect(result).toEqual({ kind: "answer", text: '{\n  "a": 1\n}', data: { a: 1 } });
    expect(state.outbox.messages.map((m) => m.message.role)).toEqual(["assistant", "tool", "tool"]);
    expect(state.outbox.messages[1]?.message).toMatchObject({ tool_call_id: "r1", content: "Accepted." });
    expect(state.outbox.messages[2]?.message).toMatchObject({ tool_call_id: "t1", content: expect.stringMatching(/^Not run/) });
  });

  it("asks for two repairs, then fails with validation_error carrying the errors and raw output", () => {
    const state = new RunState();
    const invalid = { source: "return" as const, ok: false as const, errors: ["/n must be integer"], raw: '{"n":"x"}', callId: "r1" };
    expect(judgeAnswer(state, response, invalid, schema)).toBeNull();
    expect(judgeAnswer(state, response, invalid, schema)).toBeNull();
    const repairs = state.outbox.messages.filter((m) => m.message.role === "user");
    expect(repairs).toHaveLength(2);
    expect(repairs[0]?.message.content).toMatch(/^Your output failed validation:\n- \/n must be integer\nOriginal output: \{"n":"x"\}/);
    let failure: unknown;
    try {
      judgeAnswer(state, response, invalid, schema);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(RunFailure);
    expect(failure).toMatchObject({ reason: "validation_error", details: { errors: ["/n must be integer"], rawOutput: '{"n":"x"}' } });
    expect(state.outbox.events.filter((e) => e.type === "output_invalid").map((e) => e.type === "output_invalid" && e.repairing)).toEqual([true, true, false]);
  });
});
