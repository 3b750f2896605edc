import { describe, expect, it } from "vitest";
import { checkJsonSchema, checkValue, parseJsonAnswer, strictened } from "./validator";

const triage = {
  type: "object",
  properties: {
    answer: { type: "string" },
    confidence: { type: "number", minimum: 0, maximum: 1 },
    sources: { type: "array", items: { type: "string" } },
    action_required: { type: "boolean" },
    escalation_reason: { type: ["string", "null"] },
    invoice: { type: "object", properties: { id: { type: "string" }, status: { enum: ["approved", "rejected", "pending"] } }, required: ["id"] },
  },
  required: ["answer", "confidence", "sources", "action_required"],
};

describe("JSON Schema checks", () => {
  it("accepts a valid schema and names what is wrong with an invalid one", () => {
    expect(checkJsonSchema(triage)).toEqual([]);
    expect(checkJsonSchema({ type: "objekt" })[0]).toMatch(/type/);
    expect(checkJsonSchema({ type: "object", propertees: {} })[0]).toMatch(/unknown keyword: "propertees"/);
    expect(checkJsonSchema({ $ref: "https://example.com/schema.json" })[0]).toMatch(/can't resolve reference/);
    // Schemas that name their dialect (zod and pydantic write 2020-12) compile and validate too.
    const dialect = { $schema: "https://json-schema.org/draft/2020-12/schema", ...triage };
    expect(checkJsonSchema(dialect)).toEqual([]);
    expect(checkValue(dialect, { answer: 1 }).ok).toBe(false);
  });

  it("validates nested objects, arrays, enums and optional fields with JSON pointers", () => {
    const good = { answer: "ok", confidence: 0.8, sources: ["erp"], action_required: false };
    expect(checkValue(triage, good)).toEqual({ ok: true, errors: [] });
    const bad = checkValue(triage, { answer: "ok", confidence: 1.5, sources: [3], action_required: "no", invoice: { status: "lost" } });
    expect(bad.ok).toBe(false);
    expect(bad.errors).toEqual(
      expect.arrayContaining(["/confidence must be <= 1", "/sources/0 must be string", "/action_required must be boolean", "/invoice must have required property 'id'", expect.stringMatching(/^\/invoice\/status must be one of \["approved","rejected","pending"\]/)]),
    );
  });

  it("is lenient about extra fields by default and strict when asked (DD-3)", () => {
    const extra = { answer: "ok", confidence: 0.8, sources: [], action_required: true, mood: "good", invoice: { id: "I-1", note: "x" } };
    expect(checkValue(triage, extra).ok).toBe(true);
    const strict = checkValue(triage, extra, { strict: true });
    expect(strict.errors).toEqual(expect.arrayContaining(['(root) has a field the schema does not allow: "mood"', '/invoice has a field the schema does not allow: "note"']));
  });

  it("strictens object schemas without touching enums, required lists or explicit choices", () => {
    const schema = { type: "object", properties: { tags: { type: "object", additionalProperties: true }, pick: { enum: [{ a: 1 }] } }, required: ["pick"] };
    expect(strictened(schema)).toEqual({ type: "object", properties: { tags: { type: "object", additionalProperties: true }, pick: { enum: [{ a: 1 }] } }, required: ["pick"], additionalProperties: false });
  });

  it("parses answers in a json fence and says when they are not JSON", () => {
    expect(parseJsonAnswer('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    const notJson = parseJsonAnswer("Sure! here it is");
    expect(notJson.ok).toBe(false);
  });
});
