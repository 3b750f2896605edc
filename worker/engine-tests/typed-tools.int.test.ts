// Typed tool results through the engine (issue 16 §2): a built-in with the
// seed's ERPLookupResult, the ledger tools against a real database, and an MCP
// tool that declares an output schema, honoured and broken.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { updateRegisteredMcpServer } from "../../scripts/test-support/mcp";
import type { RunEvent, TraceNode } from "../../lib/contract/types";
import { checkValue } from "../../lib/json-schema/validator";
import { BUILTIN_TOOL_OUTPUTS } from "../../lib/tools/output-schemas";

let h: EngineHarness;
beforeAll(async () => {
  // The ledger transfer and the demo server's tools run without an approval: this file is about their results, not the gate.
  h = await startEngineHarness({ policy: { exemptTools: ["ledger_transfer", "kb__*"] } });
  await updateRegisteredMcpServer(h, "kb", { allowTools: ["search_kb", "article_stats"] });
});
afterAll(async () => {
  await h?.stop();
});

function toolResults(events: RunEvent[]) {
  return events.filter((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
}

/** Each tool span's `validation_ok` attribute (undefined when the result was not checked), by call id. */
async function validationByCall(runId: string): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  const visit = (nodes: TraceNode[]) => {
    for (const node of nodes) {
      if (node.kind === "tool") found[String(node.attributes?.callId)] = node.attributes?.validation_ok;
      visit(node.children);
    }
  };
  visit(await h.engine.getTrace(runId));
  return found;
}

async function runToCompletion(graph: ReturnType<typeof singleAgentGraph>, steps: string[]) {
  const { runId } = await h.engine.startRun({ graph, task: steps.join("\n") });
  const summary = await waitForStatus(h.engine, runId, ["completed"], 60_000);
  return { runId, summary, results: toolResults(await h.engine.getEvents(runId)) };
}

describe("typed built-in results", () => {
  it("lookup_invoice returns the seed's ERPLookupResult; an unknown invoice is a tool error; the run goes on", async () => {
    const { runId, summary, results } = await runToCompletion(singleAgentGraph({ tools: ["lookup_invoice"] }), [
      'tool lookup_invoice {"invoice_id":"INV-1001"} && tool lookup_invoice {"invoice_id":"INV-1002"}',
      'tool lookup_invoice {"invoice_id":"INV-9999"}',
      "answer: triaged",
    ]);
    expect(summary.output).toBe("triaged");
    const byInvoice = Object.fromEntries(results.map((r) => [r.result.match(/INV-\d{4}/)?.[0], r]));
    expect(JSON.parse(byInvoice["INV-1001"]?.result ?? "{}")).toEqual({ invoice_id: "INV-1001", status: "rejected", reason: "missing purchase order", amount_cents: 125_000, currency: "USD" });
    expect(JSON.parse(byInvoice["INV-1002"]?.result ?? "{}")).toMatchObject({ status: "approved", reason: null });
    expect(byInvoice["INV-9999"]).toMatchObject({ outcome: "error", result: "lookup_invoice failed: no invoice INV-9999 in the ERP" });

    const validation = await validationByCall(runId);
    expect(validation[byInvoice["INV-1001"]?.callId ?? ""], "the trace shows the checked result").toBe(true);
    expect(validation[byInvoice["INV-1002"]?.callId ?? ""]).toBe(true);
    expect(byInvoice["INV-9999"]?.callId ?? "", "the failed lookup has a span").toBeOneOf(Object.keys(validation));
    expect(validation[byInvoice["INV-9999"]?.callId ?? ""], "a tool error leaves nothing to check").toBeUndefined();
  });

  it("the ledger tools' real results, read from and written to the database, match their schemas", async () => {
    const { results } = await runToCompletion(singleAgentGraph({ tools: ["ledger_balance", "ledger_transfer"] }), [
      'tool ledger_balance {"account":"operating"}',
      'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":12.5,"memo":"typed results"}',
      "answer: moved",
    ]);
    expect(results.map((r) => [r.tool, r.outcome])).toEqual([
      ["ledger_balance", "ok"],
      ["ledger_transfer", "ok"],
    ]);
    const [balance, transfer] = results.map((r) => JSON.parse(r.result) as unknown);
    expect(checkValue(BUILTIN_TOOL_OUTPUTS.ledger_balance, balance)).toEqual({ ok: true, errors: [] });
    expect(checkValue(BUILTIN_TOOL_OUTPUTS.ledger_transfer, transfer)).toEqual({ ok: true, errors: [] });
    expect(transfer).toMatchObject({ from_account: "operating", to_account: "refunds", amount: 12.5, status: "completed" });
  });
});

describe("MCP tools with an output schema", () => {
  it("structured content that matches is what the model reads; content that breaks the declared schema fails the call with the errors", async () => {
    const { runId, results } = await runToCompletion(singleAgentGraph({ mcpServers: [{ name: "kb" }] }), [
      'tool kb__article_stats {"article_id":"KB-1"}',
      'tool kb__article_stats {"article_id":"KB-2","legacy_format":true}',
      'tool kb__search_kb {"query":"warranty"}',
      "answer: checked",
    ]);
    expect(results.map((r) => [r.tool, r.outcome])).toEqual([
      ["kb__article_stats", "ok"],
      ["kb__article_stats", "error"],
      ["kb__search_kb", "ok"],
    ]);
    expect(JSON.parse(results[0]?.result ?? "{}")).toEqual({ article_id: "KB-1", title: "Refund policy", views: 1840, helpful: true });
    expect(results[1]?.result).toContain("kb__article_stats returned a result that does not match its output schema");
    expect(results[1]?.result).toContain("/views must be integer");
    expect(results[1]?.attempts, "a broken result is not an outage: no retries").toBe(1);
    expect(JSON.parse(results[2]?.result ?? "[]")[0], "a tool without a schema is unchanged").toMatchObject({ id: "KB-3" });

    const history = await h.engine.getHistory(runId);
    const told = history.filter((m) => m.role === "tool").map((m) => (m.role === "tool" ? m.content : ""));
    expect(told[1], "the model hears the validation error, not the drifting result").toMatch(/views must be integer/);
    expect(told[1]).not.toContain('"960"');
    const validation = await validationByCall(runId);
    expect(results.map((r) => validation[r.callId]), "validation_ok per call: checked and matching, checked and broken, no schema").toEqual([true, false, undefined]);
    const errors = (await h.engine.getEvents(runId)).filter((e): e is Extract<RunEvent, { type: "error" }> => e.type === "error");
    expect(errors.map((e) => e.kind)).toEqual(["invalid_result"]);
  });
});
