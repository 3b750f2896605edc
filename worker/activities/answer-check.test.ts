import { describe, expect, it } from "vitest";
import { checkAnswer } from "./answer-check";

const schema = { schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, strict: false };
const call = (name: string, args: string) => ({ id: `c-${name}`, name, arguments: args });

describe("checkAnswer", () => {
  it("checks a return call's arguments and names the call", () => {
    expect(checkAnswer(schema, { content: null, toolCalls: [call("return", '{"n": 3}')] })).toEqual({ source: "return", ok: true, data: { n: 3 }, raw: '{"n": 3}', callId: "c-return" });
    expect(checkAnswer(schema, { content: null, toolCalls: [call("return", '{"n": "three"}')] })).toMatchObject({ source: "return", ok: false, errors: ["/n must be integer"], callId: "c-return" });
  });

  it("checks text without tool calls as JSON (a fence allowed), and says when it is not JSON", () => {
    expect(checkAnswer(schema, { content: '```json\n{"n": 1}\n```', toolCalls: [] })).toMatchObject({ source: "content", ok: true, data: { n: 1 } });
    const prose = checkAnswer(schema, { content: "The answer is three.", toolCalls: [] });
    expect(prose).toMatchObject({ source: "content", ok: false });
    expect(prose?.ok === false && prose.errors[0]).toMatch(/not JSON/);
  });

  it("is not a final answer when the model calls other tools (and not return)", () => {
    expect(checkAnswer(schema, { content: null, toolCalls: [call("calculator", "{}")] })).toBeUndefined();
  });

  it("keeps at most 4,000 characters of a raw answer", () => {
    const long = JSON.stringify({ n: "x".repeat(10_000) });
    const checked = checkAnswer(schema, { content: long, toolCalls: [] });
    expect(checked?.raw.length).toBe(4001);
  });
});
