import { describe, expect, it } from "vitest";
import { blankField, fieldProblems, fieldsToSchema, schemaToFields, updateField, type SchemaField } from "./schema-fields";

const invoice = {
  title: "Invoice",
  type: "object",
  properties: {
    id: { type: "string", description: "invoice number" },
    status: { type: "string", enum: ["open", "paid"] },
    amount: { type: "number" },
    lines: { type: "array", items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer", enum: [1, 2, 3] } }, required: ["sku"] } },
    customer: { type: "object", properties: { name: { type: "string" } }, required: ["name"], description: "who pays" },
    tags: { type: "array", items: { type: "string" } },
    urgent: { type: "boolean" },
  },
  required: ["id", "status", "lines"],
};

function read(schema: Record<string, unknown>): SchemaField[] {
  const result = schemaToFields(schema);
  if (!result.ok) throw new Error(`expected the field list to show it: ${result.reason}`);
  return result.fields;
}

describe("the output schema's field list", () => {
  it("reads a schema with enums, nested objects and arrays and writes back the same schema", () => {
    const fields = read(invoice);
    expect(fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ["id", "string", true],
      ["status", "string", true],
      ["amount", "number", false],
      ["lines", "array:object", true],
      ["customer", "object", false],
      ["tags", "array:string", false],
      ["urgent", "boolean", false],
    ]);
    expect(fields[1]?.enumText).toBe("open, paid");
    expect(fields[3]?.fields.map((f) => [f.name, f.enumText, f.required])).toEqual([
      ["sku", "", true],
      ["qty", "1, 2, 3", false],
    ]);
    expect(fieldsToSchema(fields, invoice)).toEqual(invoice);
  });

  it("refuses what the rows cannot express, naming it, so the JSON view keeps every keyword", () => {
    expect(schemaToFields({ type: "object", properties: { a: { type: "string", format: "email" } } })).toEqual({ ok: false, reason: 'a uses "format"' });
    expect(schemaToFields({ type: "object", properties: { a: { oneOf: [] } } })).toMatchObject({ ok: false, reason: 'a uses "oneOf"' });
    expect(schemaToFields({ type: "object", required: ["missing"], properties: {} })).toMatchObject({ ok: false });
    expect(schemaToFields({ type: "array" })).toMatchObject({ ok: false });
    expect(schemaToFields({ type: "object", properties: { a: { type: "string", enum: ["x, y"] } } })).toMatchObject({ ok: false });
  });

  it("adds, edits, nests and removes rows; unnamed or repeated rows stay out of the schema and are flagged", () => {
    const order = { ...blankField("order"), type: "object" as const, fields: [] };
    let fields = [order, blankField("")];
    fields = updateField(fields, order.key, (row) => ({ ...row, fields: [{ ...blankField("total"), type: "integer", enumText: "1, x" }] }));
    const problems = fieldProblems(fields);
    expect([...problems.values()]).toEqual(["enum values of a number field must be numbers", "name the field (it is left out of the schema until then)"]);
    expect(fieldsToSchema(fields)).toEqual({ type: "object", properties: { order: { type: "object", properties: { total: { type: "integer", enum: [1] } }, required: ["total"] } }, required: ["order"] });

    const twice = [blankField("a"), blankField("a")];
    expect(fieldProblems(twice).get(twice[1]?.key ?? "")).toContain("used twice");
    const removed = updateField(fields, fields[1]?.key ?? "", () => null);
    expect(removed.map((f) => f.name)).toEqual(["order"]);
  });
});
