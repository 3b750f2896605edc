// The executor checks each result against the tool's output schema (issue 16
// §2): a built-in whose result drifts from its schema, and MCP structured
// content with or without a declared schema.
import { afterEach, describe, expect, it, vi } from "vitest";
import { agentSchema } from "../../lib/agents/schemas";
import { createDb } from "../../lib/db/prisma";
import { checkValue } from "../../lib/json-schema/validator";
import { findBuiltin } from "./builtins";
import { checkedResult, createToolExecutor, mcpOutcome } from "./executor";
import { createMcpConnections, withoutDialect } from "./mcp";

const unusedDb = createDb("file:/tmp/zap-unit-unused.db");
const executor = createToolExecutor({
  db: unusedDb,
  mcp: createMcpConnections({ db: unusedDb, config: { keyMaterial: null, mcpStdioAllowlist: null, egress: { allowHosts: [] } }, cwd: process.cwd() }),
  httpAllowlist: [],
});
const agent = agentSchema.parse({ name: "a", tools: ["lookup_invoice", "calculator"] });
const context = { runId: "r", rootRunId: "r", agentName: "a", iteration: 1, callId: "c", idempotencyKey: "r:1:c", runContext: {}, signal: new AbortController().signal, heartbeat: () => undefined };
const call = (toolName: string, args: unknown) => executor.execute({ agent, toolName, rawArguments: JSON.stringify(args), context });

afterEach(() => vi.restoreAllMocks());

describe("built-in results are checked against their output schema", () => {
  it("a matching result reaches the model as JSON, marked validated", async () => {
    const outcome = await call("lookup_invoice", { invoice_id: "INV-1001" });
    expect(outcome).toMatchObject({ ok: true, validation: "ok" });
    expect(JSON.parse(outcome.content)).toMatchObject({ invoice_id: "INV-1001", status: "rejected", reason: "missing purchase order" });
  });

  it("the tool's own error is an execution failure, with no validation (there was no result to check)", async () => {
    const outcome = await call("lookup_invoice", { invoice_id: "INV-9999" });
    expect(outcome).toEqual({ ok: false, errorKind: "execution", content: "lookup_invoice failed: no invoice INV-9999 in the ERP" });
  });

  it("a result that drifts from the schema fails the call, and the model hears the validation errors, not the result", async () => {
    const tool = findBuiltin("lookup_invoice");
    if (!tool) throw new Error("lookup_invoice is missing");
    vi.spyOn(tool, "execute").mockResolvedValue({ invoice_id: "INV-1001", status: "lost", amount_cents: "125000", secret: "internal" });
    const outcome = await call("lookup_invoice", { invoice_id: "INV-1001" });
    expect(outcome).toMatchObject({ ok: false, errorKind: "invalid_result", validation: "failed" });
    expect(outcome.content).toContain("lookup_invoice returned a result that does not match its output schema");
    expect(outcome.content).toContain('/status must be one of ["approved","rejected","pending"]');
    expect(outcome.content).toContain("/amount_cents must be integer");
    expect(outcome.content).toContain('has a field the schema does not allow: "secret"');
    expect(outcome.content, "the discarded result is not shown to the model").not.toContain("internal");
    expect(outcome.content).toContain("call the tool again");
  });

  it("a side-effecting tool's discarded result warns the model not to repeat the call blindly", () => {
    const outcome = checkedResult("ledger_transfer", { type: "object", required: ["transfer_id"] }, {}, true);
    expect(outcome).toMatchObject({ ok: false, errorKind: "invalid_result", validation: "failed" });
    expect(outcome.content).toContain("may already have taken effect");
    expect(outcome.content).not.toContain("call the tool again");
  });

  it("at most eight validation errors reach the model", () => {
    const schema = { type: "object", properties: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, { type: "integer" }])) };
    const outcome = checkedResult("wide", schema, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, "x"])));
    expect(outcome.content.match(/must be integer/g)).toHaveLength(8);
  });
});

describe("MCP results", () => {
  const schema = { type: "object", properties: { views: { type: "integer" }, title: { type: "string" } }, required: ["views"] };

  it("structured content that matches the declared schema reaches the model as its JSON, marked validated", () => {
    const outcome = mcpOutcome("kb__article_stats", { isError: false, text: "ignored text", structuredContent: { views: 3, title: "Refunds" }, outputSchema: schema });
    expect(outcome).toEqual({ ok: true, validation: "ok", content: '{"views":3,"title":"Refunds"}' });
  });

  it("structured content that breaks the schema fails the call with the errors", () => {
    const outcome = mcpOutcome("kb__article_stats", { isError: false, text: "{}", structuredContent: { views: "3" }, outputSchema: schema });
    expect(outcome).toMatchObject({ ok: false, errorKind: "invalid_result", validation: "failed" });
    expect(outcome.content).toContain("/views must be integer");
    expect(outcome.content).toContain("may already have taken effect");
  });

  it("a tool that declares a schema but sends no structured content fails validation", () => {
    const outcome = mcpOutcome("kb__article_stats", { isError: false, text: '{"views":3}', outputSchema: schema });
    expect(outcome).toMatchObject({ ok: false, errorKind: "invalid_result", validation: "failed" });
    expect(outcome.content).toContain("returned no structured content");
  });

  it("a tool's own error stays an MCP error, unchecked; a tool without a schema is unchecked text", () => {
    expect(mcpOutcome("kb__x", { isError: true, text: "read-only today", outputSchema: schema })).toEqual({ ok: false, errorKind: "mcp", content: "kb__x reported an error: read-only today" });
    expect(mcpOutcome("kb__x", { isError: false, text: "plain words" })).toEqual({ ok: true, content: "plain words" });
    expect(mcpOutcome("kb__x", { isError: false, text: "", structuredContent: { a: 1 } }), "structured content without text is shown as JSON").toEqual({ ok: true, content: '{"a":1}' });
  });

  it("a draft 2020-12 schema (the MCP default, what zod-built servers send) is checked once its dialect marker is dropped", () => {
    const declared = { $schema: "https://json-schema.org/draft/2020-12/schema", ...schema };
    expect(checkValue(withoutDialect(declared), { views: 1 })).toEqual({ ok: true, errors: [] });
    expect(checkValue(withoutDialect(declared), { views: "1" }).errors).toEqual(["/views must be integer"]);
  });
});
