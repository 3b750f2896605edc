// The parser of tool calls written as text (issue 22 §3): what counts as one
// call of an offered tool, and what stays a text answer.
import { describe, expect, it } from "vitest";
import { parseTextToolCall, textToolCallId } from "./text-tool-calls";
import type { InferenceMessage } from "./types";

const OFFERED = ["calculator", "lookup_invoice", "return", "fail"];

describe("parseTextToolCall", () => {
  it("reads the bare JSON of one call, trimmed, arguments as JSON text", () => {
    expect(parseTextToolCall('\n  {"name": "calculator", "arguments": {"expression": "6*7"}}  \n', OFFERED)).toEqual({ name: "calculator", arguments: '{"expression":"6*7"}' });
  });

  it("accepts parameters for arguments, and empty arguments", () => {
    expect(parseTextToolCall('{"name": "calculator", "parameters": {"expression": "1+1"}}', OFFERED)).toEqual({ name: "calculator", arguments: '{"expression":"1+1"}' });
    expect(parseTextToolCall('{"arguments": {}, "name": "fail"}', OFFERED), "key order does not matter").toEqual({ name: "fail", arguments: "{}" });
  });

  it("reads one call inside one ```json fence (or a bare ``` fence)", () => {
    expect(parseTextToolCall('```json\n{"name": "calculator", "arguments": {"expression": "2*3"}}\n```', OFFERED)).toEqual({ name: "calculator", arguments: '{"expression":"2*3"}' });
    expect(parseTextToolCall('  ```JSON\n{"name": "calculator", "arguments": {"expression": "2*3"}}```\n', OFFERED)?.name).toBe("calculator");
    expect(parseTextToolCall('```\n{"name": "calculator", "arguments": {"expression": "2*3"}}\n```', OFFERED)?.name).toBe("calculator");
  });

  it("keeps arguments the model wrote even when the tool would refuse them: the executor validates them", () => {
    expect(parseTextToolCall('{"name": "calculator", "arguments": {"wrong": true}}', OFFERED)).toEqual({ name: "calculator", arguments: '{"wrong":true}' });
  });

  it.each([
    ["an unknown tool", '{"name": "delete_everything", "arguments": {}}'],
    ["text before the call", 'Sure! {"name": "calculator", "arguments": {"expression": "6*7"}}'],
    ["text after the call", '{"name": "calculator", "arguments": {"expression": "6*7"}} Done.'],
    ["text around the fence", 'Here:\n```json\n{"name": "calculator", "arguments": {}}\n```'],
    ["two fences", '```json\n{"name": "calculator", "arguments": {}}\n```\n```json\n{"name": "calculator", "arguments": {}}\n```'],
    ["two calls in a row", '{"name": "calculator", "arguments": {}}\n{"name": "calculator", "arguments": {}}'],
    ["a list of calls", '[{"name": "calculator", "arguments": {}}]'],
    ["an extra key", '{"name": "calculator", "arguments": {}, "id": "call_1"}'],
    ["both arguments and parameters", '{"name": "calculator", "arguments": {}, "parameters": {}}'],
    ["no arguments", '{"name": "calculator"}'],
    ["arguments as a JSON string", '{"name": "calculator", "arguments": "{\\"expression\\": \\"6*7\\"}"}'],
    ["arguments as a list", '{"name": "calculator", "arguments": ["6*7"]}'],
    ["arguments null", '{"name": "calculator", "arguments": null}'],
    ["a name that is not a string", '{"name": 7, "arguments": {}}'],
    ["malformed JSON", '{"name": "calculator", "arguments": {expression: 6*7}}'],
    ["a typed answer with a name field", '{"name": "calculator", "confidence": 0.9}'],
    ["plain text", "The answer is 42."],
    ["nothing", "   "],
  ])("%s stays a text answer", (_, text) => {
    expect(parseTextToolCall(text, OFFERED)).toBeNull();
  });

  it("only the offered tools count", () => {
    const text = '{"name": "calculator", "arguments": {}}';
    expect(parseTextToolCall(text, ["lookup_invoice"])).toBeNull();
    expect(parseTextToolCall(text, [])).toBeNull();
  });
});

describe("textToolCallId", () => {
  const conversation: InferenceMessage[] = [
    { role: "system", content: "Be exact." },
    { role: "user", content: "6*7?" },
  ];

  it("is the same for the same conversation and reply, and differs when either changes", () => {
    const id = textToolCallId(conversation, "reply");
    expect(id).toMatch(/^text-call-[0-9a-f]{16}$/);
    expect(textToolCallId([...conversation], "reply")).toBe(id);
    expect(textToolCallId(conversation, "another reply")).not.toBe(id);
    expect(textToolCallId([...conversation, { role: "user", content: "again" }], "reply")).not.toBe(id);
  });
});
