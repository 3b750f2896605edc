// Issue 14 §5: MCP secrets (an env value, a header value, URL credentials) are
// stored sealed and write-only. An admin registers them; afterwards they appear
// in no listing, export, span, run event, message or audit row, nor anywhere
// else in the database in clear. The run context reaches only servers that opted in.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEngineHarness, singleAgentGraph, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { freePort } from "../../scripts/test-support/ports";
import { DEMO_STDIO, registerMcpServer, updateRegisteredMcpServer } from "../../scripts/test-support/mcp";
import { createAgent, getVersion } from "../agents/server/store";
import { writeWorkspacePolicy } from "../policy/store";
import { getMcpServer, listMcpServers } from "./server/registry";
import { resolveRegisteredServer } from "./stored";
import type { RunEvent } from "../contract/types";
import { ValidationError } from "../errors";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENV_SECRET = "env-secret-value-7f3a9c";
const HEADER_SECRET = "header-secret-value-b81d2e";
const URL_PASSWORD = "url-password-c0ffee";
const ROTATED = "rotated-secret-value-5e5e5e";

let h: EngineHarness;
let httpServer: ChildProcess;
let builder: { id: string };

beforeAll(async () => {
  const port = await freePort();
  // The demo server, allowed to receive the two variables this suite rotates (the JSON form of the allowlist).
  const allowlist = JSON.stringify([{ command: DEMO_STDIO.command, args: DEMO_STDIO.args, env: ["KB_TOKEN", "OTHER"] }]);
  h = await startEngineHarness({ env: { ZAP_EGRESS_ALLOW_HOSTS: `127.0.0.1:${port}`, ZAP_MCP_STDIO_ALLOWLIST: allowlist } });
  httpServer = spawn(process.execPath, ["--import", "tsx", "worker/tools/mcp-demo-server.ts", "--http", String(port)], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => httpServer.stdout?.once("data", () => resolve()));
  builder = await h.db.user.findFirstOrThrow({ where: { role: "builder" }, select: { id: true } });
  await writeWorkspacePolicy(h.db, null, { exemptTools: ["sealed_stdio__*", "sealed_http__*"] });
  await registerMcpServer(h, { name: "sealed_stdio", transport: DEMO_STDIO, secrets: { KB_TOKEN: ENV_SECRET }, receivesRunContext: true });
  await registerMcpServer(h, {
    name: "sealed_http",
    transport: { type: "http", url: `http://zap:${URL_PASSWORD}@127.0.0.1:${port}/mcp` },
    secrets: { "X-Api-Key": HEADER_SECRET },
  });
});
afterAll(async () => {
  httpServer?.kill();
  await h?.stop();
});

const SECRETS = [ENV_SECRET, HEADER_SECRET, URL_PASSWORD, ROTATED];
const leaks = (text: string) => SECRETS.filter((s) => text.includes(s));

/** Every row of every table, as text (the sealed column included: it must not hold a secret in clear). */
async function wholeDatabaseText(): Promise<string> {
  const tables = await h.db.$queryRawUnsafe<{ name: string }[]>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  const dumps = await Promise.all(tables.map(async (t) => JSON.stringify(await h.db.$queryRawUnsafe(`SELECT * FROM "${t.name}"`), (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))));
  return dumps.join("\n");
}

describe("MCP secrets are sealed and write-only", () => {
  it("the listing and a single server show secret names as set, never values; URL credentials are not in the URL", async () => {
    const listed = await listMcpServers(h.db);
    const http = await getMcpServer(h.db, "sealed_http");
    expect(leaks(JSON.stringify(listed))).toEqual([]);
    expect(leaks(JSON.stringify(http))).toEqual([]);
    expect(http.secretNames).toEqual(["Authorization", "X-Api-Key"]);
    expect(http.transport).toEqual({ type: "http", url: expect.not.stringContaining("@") });
    expect((await getMcpServer(h.db, "sealed_stdio")).secretNames).toEqual(["KB_TOKEN"]);
  });

  it("a key in the URL's query is refused at registration (the URL is shown to every viewer): 422 naming transport.url, nothing stored", async () => {
    const error = await registerMcpServer(h, { name: "query_key", transport: { type: "http", url: `http://127.0.0.1:1/mcp?api_key=${ROTATED}` } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ path: "transport.url", message: expect.stringMatching(/leave the query out of the URL/) }]);
    expect(await h.db.mcpServer.findUnique({ where: { name: "query_key" } })).toBeNull();
  });

  it("the worker opens them: the env value and the headers (URL credentials as Basic auth)", async () => {
    const stdio = await resolveRegisteredServer(h.db, h.config, "sealed_stdio");
    const http = await resolveRegisteredServer(h.db, h.config, "sealed_http");
    expect(stdio?.secrets.env).toEqual({ KB_TOKEN: ENV_SECRET });
    expect(http?.secrets.headers["X-Api-Key"]).toBe(HEADER_SECRET);
    expect(Buffer.from(http?.secrets.headers.Authorization?.replace("Basic ", "") ?? "", "base64").toString()).toBe(`zap:${URL_PASSWORD}`);
  });

  it("an omitted secret keeps its value, a new one replaces it, null removes it", async () => {
    await updateRegisteredMcpServer(h, "sealed_stdio", { description: "renamed" });
    expect((await resolveRegisteredServer(h.db, h.config, "sealed_stdio"))?.secrets.env).toEqual({ KB_TOKEN: ENV_SECRET });
    await updateRegisteredMcpServer(h, "sealed_stdio", { secrets: { OTHER: ROTATED } });
    await updateRegisteredMcpServer(h, "sealed_stdio", { secrets: { OTHER: null } });
    expect((await resolveRegisteredServer(h.db, h.config, "sealed_stdio"))?.secrets.env).toEqual({ KB_TOKEN: ENV_SECRET });
  });

  it("a run through both servers leaves no secret in events, spans, messages, the export, the audit log or any table", async () => {
    const graph = singleAgentGraph({ mcpServers: [{ name: "sealed_stdio" }, { name: "sealed_http" }] });
    await createAgent(h.db, "sealed-graph", "", graph, builder, "uses sealed servers");
    const { runId } = await h.engine.startRun({
      graphName: "sealed-graph",
      context: { tenant: "acme" },
      task: ['tool sealed_stdio__search_kb {"query":"refund"} && tool sealed_http__search_kb {"query":"refund"}', "tool sealed_stdio__echo_context {}", "tool sealed_http__echo_context {}", "answer: done"].join("\n"),
    });
    await waitForStatus(h.engine, runId, ["completed"], 60_000);
    const events = await h.engine.getEvents(runId);
    const results = events.filter((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
    const byTool = Object.fromEntries(results.map((r) => [r.tool, r]));
    expect(Object.fromEntries(results.map((r) => [r.tool, r.outcome]))).toEqual({ sealed_stdio__search_kb: "ok", sealed_http__search_kb: "ok", sealed_stdio__echo_context: "ok", sealed_http__echo_context: "ok" });
    // The run's context goes only to the server registered to receive it.
    expect(JSON.parse(byTool.sealed_stdio__echo_context?.result ?? "{}").meta.context).toEqual({ tenant: "acme" });
    expect(JSON.parse(byTool.sealed_http__echo_context?.result ?? "{}").meta).not.toHaveProperty("context");

    const exported = await getVersion(h.db, "sealed-graph");
    const everything = [
      JSON.stringify(events),
      JSON.stringify(await h.engine.getTrace(runId)),
      JSON.stringify(await h.engine.getHistory(runId)),
      JSON.stringify(exported),
      JSON.stringify(await h.db.auditEvent.findMany()),
      await wholeDatabaseText(),
    ];
    expect(everything.map(leaks), "no secret in events, spans, messages, export, audit or any table").toEqual(everything.map(() => []));
    const audited = await h.db.auditEvent.findMany({ where: { action: { in: ["mcp_server.created", "mcp_server.updated"] } } });
    expect(audited.map((a) => a.target)).toEqual(expect.arrayContaining(["sealed_stdio", "sealed_http"]));
  }, scaledWait(90_000));
});
