// Typed tool results (issue 16 §2): every built-in declares an output schema,
// and what each tool really returns matches it. Tools that need the database
// (the ledger) are run against a real one in worker/engine-tests/typed-tools.int.test.ts.
import { describe, expect, it } from "vitest";
import { BUILTIN_TOOLS } from "../../lib/tools/catalog";
import { BUILTIN_TOOL_OUTPUTS, builtinToolOutputSchema } from "../../lib/tools/output-schemas";
import { checkJsonSchema, checkValue } from "../../lib/json-schema/validator";
import { createDb } from "../../lib/db/prisma";
import { BUILTIN_IMPLEMENTATIONS, findBuiltin } from "./builtins";
import { ToolUserError, type ToolContext } from "./types";

const unusedDb = createDb("file:/tmp/zap-unit-unused.db");
const context: ToolContext = {
  db: unusedDb,
  runId: "r",
  rootRunId: "r",
  agentName: "a",
  iteration: 1,
  callId: "c",
  idempotencyKey: "r:1:c",
  runContext: {},
  signal: new AbortController().signal,
  heartbeat: () => undefined,
  httpAllowlist: ["example.test"],
  // No network: http_get reads this canned reply.
  egressFetch: async () => new Response('{"ok":true}', { status: 200, headers: { "content-type": "application/json" } }),
};

/** Arguments that make each database-free tool succeed, several per tool where results differ in shape. */
const SAMPLES: Record<string, Record<string, unknown>[]> = {
  current_time: [{}, { time_zone: "Europe/Paris" }],
  calculator: [{ expression: "6*7" }, { expression: "2^0.5" }],
  http_get: [{ url: "https://example.test/data.json" }],
  lookup_order: [{ order_id: "A-1001" }, { order_id: "A-1002" }, { order_id: "A-1003" }],
  lookup_invoice: [{ invoice_id: "INV-1001" }, { invoice_id: "INV-1002" }, { invoice_id: "INV-1003" }],
  search_notes: [{ query: "temporal workflows" }, { query: "nothing matches zzz" }],
};
/** Tools whose results are checked against a real database instead (typed-tools.int.test.ts). */
const NEED_DATABASE = ["ledger_balance", "ledger_transfer"];

async function run(id: string, args: Record<string, unknown>): Promise<unknown> {
  const tool = findBuiltin(id);
  if (!tool) throw new Error(`no built-in ${id}`);
  return tool.execute(tool.schema.parse(args), context);
}

describe("built-in tools' output schemas", () => {
  it("every built-in declares the catalogue's output schema, and each schema is a valid JSON Schema", () => {
    expect(Object.keys(BUILTIN_TOOL_OUTPUTS).sort()).toEqual(BUILTIN_TOOLS.map((t) => t.id).sort());
    for (const tool of BUILTIN_IMPLEMENTATIONS) {
      expect(tool.outputSchema, tool.id).toBe(builtinToolOutputSchema(tool.id));
      expect(checkJsonSchema(tool.outputSchema), `${tool.id}'s output schema compiles in strict mode`).toEqual([]);
    }
    expect(builtinToolOutputSchema("toString"), "an inherited property is not a tool").toBeNull();
  });

  it("the samples cover every built-in (a new tool needs one here or in the integration test)", () => {
    expect([...Object.keys(SAMPLES), ...NEED_DATABASE].sort()).toEqual(BUILTIN_TOOLS.map((t) => t.id).sort());
  });

  it.each(Object.entries(SAMPLES))("%s's real results match its output schema", async (id, samples) => {
    for (const args of samples) {
      const result = await run(id, args);
      expect(checkValue(builtinToolOutputSchema(id) ?? {}, result), `${id} ${JSON.stringify(args)} → ${JSON.stringify(result)}`).toEqual({ ok: true, errors: [] });
    }
  });

  it("the schemas refuse results of the wrong shape: a closed object, enums, integers, nullable strings", () => {
    const invoice = BUILTIN_TOOL_OUTPUTS.lookup_invoice;
    expect(checkValue(invoice, { invoice_id: "INV-1", status: "approved", amount_cents: 100 }).ok, "reason and currency are optional, as in the seed").toBe(true);
    expect(checkValue(invoice, { invoice_id: "INV-1", status: "lost", amount_cents: 100 }).errors).toEqual(['/status must be one of ["approved","rejected","pending"]']);
    expect(checkValue(invoice, { invoice_id: "INV-1", status: "pending", amount_cents: 12.5 }).errors).toEqual(["/amount_cents must be integer"]);
    expect(checkValue(invoice, { invoice_id: "INV-1", status: "pending", amount_cents: 1, reason: 3 }).errors).toEqual(["/reason must be string,null"]);
    expect(checkValue(invoice, { invoice_id: "INV-1", status: "pending", amount_cents: 1, note: "x" }).errors).toEqual(['(root) has a field the schema does not allow: "note"']);
    expect(checkValue(BUILTIN_TOOL_OUTPUTS.calculator, { expression: "1/0", result: "Infinity" }).ok).toBe(false);
    expect(checkValue(BUILTIN_TOOL_OUTPUTS.ledger_transfer, { transfer_id: "t", from_account: "a", to_account: "b", amount: 0, status: "completed" }).ok, "a transfer moves a positive amount").toBe(false);
  });
});

describe("lookup_invoice", () => {
  it("answers the demo ERP's invoices, one of each status", async () => {
    expect(await run("lookup_invoice", { invoice_id: "INV-1001" })).toEqual({ invoice_id: "INV-1001", status: "rejected", reason: "missing purchase order", amount_cents: 125_000, currency: "USD" });
    expect(await run("lookup_invoice", { invoice_id: "INV-1002" })).toMatchObject({ status: "approved", reason: null });
    expect(await run("lookup_invoice", { invoice_id: "INV-1003" })).toMatchObject({ status: "pending" });
  });

  it("an unknown invoice is the tool's own error, and a malformed id fails the arguments", async () => {
    await expect(run("lookup_invoice", { invoice_id: "INV-9999" })).rejects.toThrow(ToolUserError);
    await expect(run("lookup_invoice", { invoice_id: "INV-9999" })).rejects.toThrow("no invoice INV-9999");
    expect(findBuiltin("lookup_invoice")?.schema.safeParse({ invoice_id: "1001" }).success).toBe(false);
    expect(findBuiltin("lookup_invoice")?.sideEffect).toBe(false);
  });
});
