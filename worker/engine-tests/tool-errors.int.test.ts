// Bad model output never crashes a run, and MCP servers work as tool sources.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { freePort } from "../../scripts/test-support/ports";
import type { RunEvent } from "../../lib/contract/types";
import { registerMcpServer, updateRegisteredMcpServer } from "../../scripts/test-support/mcp";

let h: EngineHarness;
let httpServer: ChildProcess;
let httpUrl: string;
const ROOT = path.resolve(import.meta.dirname, "../..");

let deadPort: number;

beforeAll(async () => {
  const port = await freePort();
  deadPort = await freePort();
  // Both loopback servers are the operator's own: the egress guard is told so.
  h = await startEngineHarness({ policy: { exemptTools: ["kb__*", "remote__*", "gone__*"] }, env: { ZAP_EGRESS_ALLOW_HOSTS: `127.0.0.1:${port},127.0.0.1:${deadPort}` } });
  httpUrl = `http://127.0.0.1:${port}/mcp`;
  // The seeded demo server "kb" allows every tool here (echo_context included); graphs name servers, the registry holds them.
  await updateRegisteredMcpServer(h, "kb", { allowTools: [], receivesRunContext: true });
  await registerMcpServer(h, { name: "remote", transport: { type: "http", url: httpUrl } });
  await registerMcpServer(h, { name: "gone", transport: { type: "http", url: `http://127.0.0.1:${deadPort}/mcp` } });
  httpServer = spawn(process.execPath, ["--import", "tsx", "worker/tools/mcp-demo-server.ts", "--http", String(port)], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => httpServer.stdout?.once("data", () => resolve()));
});
afterAll(async () => {
  httpServer?.kill();
  await h?.stop();
});

const stdioServer = { name: "kb" };

function toolResults(events: RunEvent[]) {
  return events.filter((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
}

describe("bad model output becomes a tool error the model sees", () => {
  it("malformed JSON, an unknown tool, schema failures and an unreachable MCP server; the run goes on", async () => {
    const graph = singleAgentGraph({
      tools: ["calculator"],
      mcpServers: [{ name: "gone", allowTools: ["search_kb"] }],
    });
    const { runId } = await h.engine.startRun({
      graph,
      task: [
        "tool calculator raw:{expression: 6*7",
        'tool teleport {"to":"mars"}',
        'tool calculator {"expr":"1+1"}',
        'tool gone__search_kb {"query":"refund"}',
        'tool calculator {"expression":"6*7"}',
        "answer: recovered",
      ].join("\n"),
    });
    const summary = await waitForStatus(h.engine, runId, ["completed"], 60_000);
    expect(summary.output).toBe("recovered");
    const events = await h.engine.getEvents(runId);
    const results = toolResults(events);
    expect(results.map((r) => r.outcome)).toEqual(["error", "error", "error", "error", "ok"]);
    expect(results[0]?.result).toMatch(/not valid JSON/);
    expect(results[1]?.result).toMatch(/no tool named "teleport"/);
    expect(results[2]?.result).toMatch(/Invalid arguments for calculator: expression: /);
    expect(results[3]?.result).toMatch(/MCP server "gone" is unreachable/);
    const errors = events.filter((e) => e.type === "error");
    expect(errors.filter((e) => e.type === "error" && e.callId).length).toBe(4);
    expect(errors.some((e) => e.type === "error" && e.kind === "mcp" && !e.callId)).toBe(true);

    const history = await h.engine.getHistory(runId);
    const toolMessages = history.filter((m) => m.role === "tool").map((m) => (m.role === "tool" ? m.content : ""));
    expect(toolMessages[1]).toContain("teleport");
  });

  it("fails with tool_error when the graph's policy says so", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator"] }, { toolErrorPolicy: "fail" }), task: 'tool calculator {"expression":"1/0"}' });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error?.reason).toBe("tool_error");
    expect(summary.error?.message).toMatch(/division by zero/);
  });
});

describe("MCP tools", () => {
  it("discovers and calls stdio and Streamable HTTP servers, passing the run context as metadata", async () => {
    const graph = singleAgentGraph({
      mcpServers: [stdioServer, { name: "remote", allowTools: ["create_ticket", "always_fails"] }],
    });
    const { runId } = await h.engine.startRun({
      graph,
      context: { tenant: "acme" },
      task: [
        'tool kb__search_kb {"query":"refund"} && tool remote__create_ticket {"title":"Broken screen","priority":"high"}',
        "tool kb__echo_context {}",
        "tool remote__always_fails {}",
        "tool remote__echo_context {}",
        "answer: done",
      ].join("\n"),
    });
    await waitForStatus(h.engine, runId, ["completed"], 60_000);
    // Calls of one step finish in any order: look results up by tool.
    const results = toolResults(await h.engine.getEvents(runId));
    const byTool = Object.fromEntries(results.map((r) => [r.tool, r]));
    expect(Object.fromEntries(results.map((r) => [r.tool, r.outcome]))).toEqual({
      kb__search_kb: "ok",
      remote__create_ticket: "ok",
      kb__echo_context: "ok",
      remote__always_fails: "error",
      remote__echo_context: "error",
    });
    expect(JSON.parse(byTool.kb__search_kb?.result ?? "[]")[0]).toMatchObject({ id: "KB-1", title: "Refund policy" });
    expect(JSON.parse(byTool.remote__create_ticket?.result ?? "{}")).toMatchObject({ priority: "high", status: "open" });
    const meta = JSON.parse(byTool.kb__echo_context?.result ?? "{}").meta;
    expect(meta).toMatchObject({ zap: { runId, rootRunId: runId, agent: "main" }, context: { tenant: "acme" } });
    expect(byTool.remote__always_fails?.result).toContain("read-only today");
    // Not on the allow-list: offered to nobody, so it is an unknown tool.
    expect(byTool.remote__echo_context?.result).toMatch(/no tool named "remote__echo_context"/);
  });

  it("an infrastructure failure inside a tool is retried, then reaches the model as a plain sentence without internals", async () => {
    // A missing table makes Prisma throw its invocation text (absolute paths, source lines).
    await h.db.$executeRawUnsafe("ALTER TABLE ledger_accounts RENAME TO ledger_accounts_away");
    try {
      const { runId } = await h.engine.startRun({
        graph: singleAgentGraph({ tools: ["ledger_balance"] }),
        task: 'tool ledger_balance {"account":"operating"}\nanswer: carried on',
      });
      const summary = await waitForStatus(h.engine, runId, ["completed"], 60_000);
      expect(summary.output).toBe("carried on");
      const [result] = toolResults(await h.engine.getEvents(runId));
      expect(result?.outcome).toBe("error");
      expect(result?.attempts, "retried before the model hears of it").toBe(6);
      expect(result?.result).toMatch(/ledger_balance is temporarily unavailable/);
      const visible = JSON.stringify([await h.engine.getEvents(runId), await h.engine.getHistory(runId), await h.engine.getTrace(runId)]);
      expect(visible, "no file paths").not.toContain(ROOT);
      expect(visible, "no driver text").not.toMatch(/prisma|ledger_accounts|invocation|\.ts:\d+/i);
    } finally {
      await h.db.$executeRawUnsafe("ALTER TABLE ledger_accounts_away RENAME TO ledger_accounts");
    }
  });
});
