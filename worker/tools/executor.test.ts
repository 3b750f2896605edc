import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentSchema } from "../../lib/agents/schemas";
import { createDb } from "../../lib/db/prisma";
import { createGuardedFetch } from "../../lib/net/egress";
import { createMcpConnections } from "./mcp";
import { createToolExecutor, messageAgentTool } from "./executor";

let server: Server;
let host: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"hello":"world"}'));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// The database client connects lazily; these tools never query it.
// The local test server is on loopback: the egress guard is told it is the operator's own.
const unusedDb = createDb("file:/tmp/zap-unit-unused.db");
const executor = (allowlist: string[]) =>
  createToolExecutor({ db: unusedDb, mcp: createMcpConnections({ db: unusedDb, config: { keyMaterial: null, mcpStdioAllowlist: null, egress: { allowHosts: [] } }, cwd: process.cwd() }), httpAllowlist: allowlist, egressFetch: createGuardedFetch({ allowHosts: [host] }) });
const agent = agentSchema.parse({ name: "a", tools: ["http_get", "calculator"] });
const context = { runId: "r", rootRunId: "r", agentName: "a", iteration: 1, callId: "c", idempotencyKey: "r:1:c", runContext: {}, signal: new AbortController().signal, heartbeat: () => undefined };

describe("tool executor", () => {
  it("http_get fetches allow-listed hosts only", async () => {
    const url = `http://${host}/data.json`;
    const allowed = await executor([host]).execute({ agent, toolName: "http_get", rawArguments: JSON.stringify({ url }), context });
    expect(allowed.ok).toBe(true);
    expect(JSON.parse(allowed.content)).toMatchObject({ status: 200, body: '{"hello":"world"}', truncated: false });

    const refused = await executor([]).execute({ agent, toolName: "http_get", rawArguments: JSON.stringify({ url }), context });
    expect(refused).toMatchObject({ ok: false, errorKind: "execution" });
    expect(refused.content).toContain("not on the allow-list");
  });

  it("says which tools an agent offers (a taped run asks before reusing a recording)", () => {
    const withMcp = agentSchema.parse({ name: "b", tools: ["calculator"], mcpServers: [{ name: "kb", allowTools: ["search_kb"] }] });
    const tools = executor([]);
    expect(tools.offers(withMcp, "calculator")).toBe(true);
    expect(tools.offers(withMcp, "ledger_transfer")).toBe(false);
    expect(tools.offers(withMcp, "kb__search_kb")).toBe(true);
    expect(tools.offers(withMcp, "kb__delete_all")).toBe(false);
    expect(tools.offers(withMcp, "other__search_kb")).toBe(false);
  });

  it("refuses tools the agent does not list, even built-in ones", async () => {
    const outcome = await executor([]).execute({ agent, toolName: "ledger_transfer", rawArguments: "{}", context });
    expect(outcome).toMatchObject({ ok: false, errorKind: "unknown_tool" });
  });

  it("rejects non-object arguments", async () => {
    const outcome = await executor([]).execute({ agent, toolName: "calculator", rawArguments: "[1,2]", context });
    expect(outcome).toMatchObject({ ok: false, errorKind: "invalid_arguments" });
  });

  it("describes message_agent with the sub-agents and their descriptions", () => {
    const tool = messageAgentTool([{ name: "billing", description: "refunds" }]);
    expect(tool.description).toContain("- billing: refunds");
    expect(tool.parameters).toMatchObject({ properties: { agent_name: { enum: ["billing"] } }, required: ["message"] });
  });
});
