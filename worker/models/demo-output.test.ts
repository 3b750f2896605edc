import { describe, expect, it } from "vitest";
import { invalidArgumentsFor, valueForSchema } from "./demo-output";
import { checkValue } from "../../lib/json-schema/validator";
import { routingDecisionSchema } from "../../lib/contract/system-tools";

const hints = { summary: "Invoice INV-1001 is rejected: duplicate.", sources: ["lookup_invoice"] };

/** The seed's invoice triage output (agent-platform-deep-dives §3). */
const triage = {
  type: "object",
  properties: {
    answer: { type: "string" },
    confidence: { type: "number", minimum: 0, maximum: 1 },
    sources: { type: "array", items: { type: "string" } },
    action_required: { type: "boolean" },
    escalation_reason: { type: ["string", "null"] },
  },
  required: ["answer", "confidence", "sources", "action_required"],
};

describe("typed demo answers", () => {
  it("fills the triage schema from the hints: answer, confidence, sources, a null reason", () => {
    const value = valueForSchema(triage, hints);
    expect(value).toEqual({ answer: hints.summary, confidence: 0.9, sources: ["lookup_invoice"], action_required: false, escalation_reason: null });
    expect(checkValue(triage, value, { strict: true })).toEqual({ ok: true, errors: [] });
  });

  it("keeps numbers within bounds, integers whole, and takes the first enum value", () => {
    const schema = {
      type: "object",
      properties: {
        confidence: { type: "number", minimum: 0, maximum: 0.5 },
        retries: { type: "integer", minimum: 3, maximum: 7 },
        score: { type: "number", exclusiveMinimum: 10 },
        priority: { type: "string", enum: ["high", "low"] },
        fixed: { const: "always" },
      },
    };
    const value = valueForSchema(schema, hints);
    expect(value).toEqual({ confidence: 0.5, retries: 3, score: 10.01, priority: "high", fixed: "always" });
    expect(checkValue(schema, value, { strict: true }).ok).toBe(true);
  });

  it("builds nested objects, arrays with their minimum length, formats, references and nullable branches", () => {
    const schema = {
      type: "object",
      $defs: { line: { type: "object", properties: { sku: { type: "string", minLength: 8 }, qty: { type: "integer" } }, required: ["sku", "qty"] } },
      properties: {
        customer: { type: "object", properties: { email: { type: "string", format: "email" }, since: { type: "string", format: "date" } } },
        lines: { type: "array", items: { $ref: "#/$defs/line" }, minItems: 2 },
        refund_reason: { anyOf: [{ type: "string" }, { type: "null" }] },
        summary: { type: "string", maxLength: 10 },
        note: { type: "string" },
      },
      required: ["customer", "lines"],
    };
    const value = valueForSchema(schema, hints);
    expect(value).toEqual({
      customer: { email: "demo@example.com", since: "2026-01-01" },
      lines: [
        { sku: "demo sku", qty: 1 },
        { sku: "demo sku", qty: 1 },
      ],
      refund_reason: null,
      summary: "Invoice IN",
      note: "demo note",
    });
    expect(checkValue(schema, value, { strict: true })).toEqual({ ok: true, errors: [] });
  });

  it("writes a short reason where the schema does not allow null", () => {
    const schema = { type: "object", properties: { escalation_reason: { type: "string" } } };
    expect(valueForSchema(schema, hints)).toEqual({ escalation_reason: "Demo reason." });
  });

  it("pads sources to the minimum the schema asks for", () => {
    const schema = { type: "object", properties: { sources: { type: "array", items: { type: "string" }, minItems: 2 } } };
    expect(valueForSchema(schema, hints)).toEqual({ sources: ["lookup_invoice", "source 2"] });
  });

  it("makes answers each schema refuses, the same every time", () => {
    expect(invalidArgumentsFor(triage)).toBe("{}");
    const optionalOnly = { type: "object", properties: { note: { type: "string" }, count: { type: "integer" } } };
    expect(invalidArgumentsFor(optionalOnly)).toBe('{"note":42}');
    expect(invalidArgumentsFor({ type: "object" })).toBe('"not an object"');
    for (const schema of [triage, optionalOnly, { type: "object" }, routingDecisionSchema(["billing", "general"])]) {
      expect(checkValue(schema, JSON.parse(invalidArgumentsFor(schema)) as unknown).ok, JSON.stringify(schema)).toBe(false);
    }
  });
});
