// What each built-in tool returns, as JSON Schema (issue 16 §2, typed tool
// results). The worker checks every result against its tool's schema before
// the model sees it (worker/tools/executor.ts): a result that does not match
// becomes a failed call, so a tool that drifts from its contract is caught
// instead of feeding the model a shape it does not expect. Plain objects, no
// zod, so anything (the designer, the API) may import them; the worker
// validates with Ajv (lib/json-schema/validator.ts).
import type { BuiltinToolId } from "./catalog";

type JsonSchemaObject = Record<string, unknown>;

const nullableString = { type: ["string", "null"] };

/** An object schema whose fields are all named: the built-ins own both the schema and the result, so an extra field is a defect. */
function closedObject(properties: Record<string, JsonSchemaObject>, required: string[] = Object.keys(properties)): JsonSchemaObject {
  return { type: "object", properties, required, additionalProperties: false };
}

/** The seed's ERPLookupResult (agent-platform-deep-dives.md §3): `reason` and `currency` have defaults there, so they are optional here. */
export const ERP_LOOKUP_RESULT_SCHEMA = closedObject(
  {
    invoice_id: { type: "string" },
    status: { type: "string", enum: ["approved", "rejected", "pending"] },
    reason: { ...nullableString, default: null },
    amount_cents: { type: "integer" },
    currency: { type: "string", default: "USD" },
  },
  ["invoice_id", "status", "amount_cents"],
);

/** Each built-in tool's result schema, by tool id. */
export const BUILTIN_TOOL_OUTPUTS = {
  current_time: closedObject({
    iso: { type: "string", format: "date-time" },
    time_zone: { type: "string" },
    local: { type: "string" },
  }),
  calculator: closedObject({ expression: { type: "string" }, result: { type: "number" } }),
  http_get: closedObject({
    status: { type: "integer", minimum: 100, maximum: 599 },
    content_type: nullableString,
    body: { type: "string" },
    truncated: { type: "boolean" },
  }),
  lookup_order: closedObject({
    order_id: { type: "string" },
    status: { type: "string" },
    item: { type: "string" },
    total: { type: "number", minimum: 0 },
    placed: { type: "string", format: "date" },
  }),
  lookup_invoice: ERP_LOOKUP_RESULT_SCHEMA,
  search_notes: closedObject({ query: { type: "string" }, results: { type: "array", items: { type: "string" } } }),
  ledger_balance: closedObject({ account: { type: "string" }, name: { type: "string" }, balance: { type: "number" } }),
  ledger_transfer: closedObject(
    {
      transfer_id: { type: "string" },
      from_account: { type: "string" },
      to_account: { type: "string" },
      amount: { type: "number", exclusiveMinimum: 0 },
      status: { type: "string", enum: ["completed"] },
      // Set when a retried call found its own earlier transfer and returned it instead of moving the money again.
      replayed: { type: "boolean" },
    },
    ["transfer_id", "from_account", "to_account", "amount", "status"],
  ),
} satisfies Record<BuiltinToolId, JsonSchemaObject>;

/** A built-in tool's result schema, or null when `id` is not a built-in tool. */
export function builtinToolOutputSchema(id: string): JsonSchemaObject | null {
  return Object.hasOwn(BUILTIN_TOOL_OUTPUTS, id) ? BUILTIN_TOOL_OUTPUTS[id as BuiltinToolId] : null;
}
