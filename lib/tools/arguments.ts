// Each built-in tool's argument schema (zod), apart from the catalogue so that
// workflow code, which imports the catalogue, never loads zod (see catalog.ts).
// The worker checks a call against these; the model and the approver see them
// as JSON schema.
import { z } from "zod";
import type { BuiltinToolId } from "./catalog";

const amount = z.number().positive("amount must be positive").max(1_000_000, "amount is over the 1,000,000 limit");

/** Each built-in tool's arguments: the worker checks a call against them, the model and the approver see them as JSON schema. */
export const BUILTIN_TOOL_INPUTS = {
  current_time: z.object({ time_zone: z.string().max(64).optional() }),
  calculator: z.object({ expression: z.string().min(1).max(500) }),
  http_get: z.object({ url: z.url({ protocol: /^https?$/ }) }),
  lookup_order: z.object({ order_id: z.string().regex(/^[A-Z]-\d{4}$/, "order ids look like A-1001") }),
  lookup_invoice: z.object({ invoice_id: z.string().regex(/^INV-\d{4}$/, "invoice ids look like INV-1001") }),
  search_notes: z.object({ query: z.string().min(1).max(200), limit: z.number().int().min(1).max(10).optional() }),
  ledger_balance: z.object({ account: z.string().min(1) }),
  ledger_transfer: z.object({
    from_account: z.string().min(1),
    to_account: z.string().min(1),
    amount,
    memo: z.string().max(200).optional(),
    /** Demo only: wait this long after recording the transfer, so a crash can be simulated mid-call. */
    hold_ms: z.number().int().min(0).max(30_000).optional(),
  }),
} as const satisfies Record<BuiltinToolId, z.ZodType>;

/** The JSON schema a model sees for a zod schema (function-calling parameters). */
export function toFunctionParameters(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** A built-in tool's arguments as JSON schema, or null when `id` is not a built-in tool. */
export function builtinToolParameters(id: string): Record<string, unknown> | null {
  return Object.hasOwn(BUILTIN_TOOL_INPUTS, id) ? toFunctionParameters(BUILTIN_TOOL_INPUTS[id as BuiltinToolId]) : null;
}
