import { describe, expect, it } from "vitest";
import { jsonNode, jsonPreview, rawJson } from "./json-view";

describe("json-view", () => {
  it("containers fold with a count, leaves show as JSON literals", () => {
    const object = jsonNode({ vendor: "Acme", lines: [1, 2] });
    expect(object.kind === "object" && jsonPreview(object)).toBe("{2 keys}");
    const array = jsonNode(["a"]);
    expect(array.kind === "array" && jsonPreview(array)).toBe("[1 item]");
    expect(jsonNode("Acme")).toEqual({ kind: "leaf", text: '"Acme"', type: "string" });
    expect(jsonNode(null)).toEqual({ kind: "leaf", text: "null", type: "null" });
    expect(jsonNode(12.5)).toEqual({ kind: "leaf", text: "12.5", type: "number" });
    expect(jsonNode(false)).toEqual({ kind: "leaf", text: "false", type: "boolean" });
  });
  it("the raw view is pretty JSON", () => {
    expect(rawJson({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
  });
});
