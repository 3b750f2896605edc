// Issue 14 §1: a builder could run any command on the web server and the
// worker through an inline MCP stdio server, and the child inherited every
// secret of the process. Each story below is an attack that used to work.
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEngineHarness, singleAgentGraph, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { DEMO_STDIO, insertMcpServerRow, registerMcpServer } from "../../scripts/test-support/mcp";
import { appendVersion, createAgent, importAgent } from "../agents/server/store";
import { writeWorkspacePolicy } from "../policy/store";
import { AppError } from "../errors";
import { discoverTools } from "./server/discover";
import { createMcpConnections, McpError } from "../../worker/tools/mcp";
import type { RunEvent } from "../contract/types";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MARKER = path.join(os.tmpdir(), `zap-mcp-marker-${process.pid}-${Date.now()}`);
/** What an attacker would type: a command that leaves a file behind if it ever runs. */
const MARKER_STDIO = { type: "stdio" as const, command: "node", args: ["-e", `require('fs').writeFileSync(${JSON.stringify(MARKER)}, 'x')`] };

let h: EngineHarness;
let builder: { id: string };
let admin: { id: string; role: string };

beforeAll(async () => {
  h = await startEngineHarness();
  builder = await h.db.user.findFirstOrThrow({ where: { role: "builder" }, select: { id: true } });
  admin = await h.db.user.findFirstOrThrow({ where: { role: "admin" }, select: { id: true, role: true } });
  // Deny-by-default gates every MCP tool: this workspace exempts the probe server's tools.
  await writeWorkspacePolicy(h.db, null, { exemptTools: ["kb__*", "envprobe__*"] });
});
afterAll(async () => h?.stop());

/** The AppError a call rejects with (status and issue paths), or a failure naming what happened instead. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; paths: string[] }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, paths: error.issues.map((i) => i.path) };
    throw error;
  }
  throw new Error("expected the call to be refused, but it succeeded");
}

const inlineGraph = () => singleAgentGraph({ mcpServers: [{ name: "pwn", transport: MARKER_STDIO }] });

describe("a builder's inline stdio server never runs", () => {
  it("is refused at save with 422 naming the transport's path", async () => {
    await createAgent(h.db, "inline-save", "", singleAgentGraph({}), builder, "first");
    const refused = await refusal(appendVersion(h.db, "inline-save", { baseVersion: 1, graph: inlineGraph(), message: "pwn" }, builder));
    expect(refused).toEqual({ status: 422, paths: ["agents[0].mcpServers[0].transport"] });
    expect(await h.db.agentVersion.count({ where: { agent: { name: "inline-save" } } }), "no version was added").toBe(1);
  });

  it("is refused at import with 422 naming the path", async () => {
    const refused = await refusal(importAgent(h.db, "inline-import", "", JSON.stringify(inlineGraph()), builder));
    expect(refused.status).toBe(422);
    expect(refused.paths).toContain("agents[0].mcpServers[0].transport");
    expect(await h.db.agent.findUnique({ where: { name: "inline-import" } })).toBeNull();
  });

  it("is refused at run start, both inline and as a legacy stored version", async () => {
    const inline = await refusal(h.engine.startRun({ graph: inlineGraph(), task: "tool pwn__anything {}" }));
    expect(inline).toEqual({ status: 422, paths: ["agents[0].mcpServers[0].transport"] });
    // A version saved before the registry existed: it still opens, but it does not run.
    const agent = await h.db.agent.create({ data: { name: "legacy-inline" } });
    await h.db.agentVersion.create({ data: { agentId: agent.id, version: 1, graph: JSON.stringify(inlineGraph()) } });
    const legacy = await refusal(h.engine.startRun({ graphName: "legacy-inline", task: "tool pwn__anything {}" }));
    expect(legacy).toEqual({ status: 422, paths: ["agents[0].mcpServers[0].transport"] });
    expect(await h.db.run.count({ where: { graphName: "legacy-inline" } })).toBe(0);
  });

  it("a reference to a server nobody registered is refused at save and at run start", async () => {
    const ghost = singleAgentGraph({ mcpServers: [{ name: "ghost" }] });
    expect(await refusal(createAgent(h.db, "ghost-ref", "", ghost, builder, "first"))).toEqual({ status: 422, paths: ["agents[0].mcpServers[0].name"] });
    expect(await refusal(h.engine.startRun({ graph: ghost, task: "hi" }))).toEqual({ status: 422, paths: ["agents[0].mcpServers[0].name"] });
  });

  it("a graph may only narrow the tools an admin allowed, never widen them", async () => {
    // The seeded "kb" allows search_kb and create_ticket; echo_context would hand the run's context to the server.
    const wider = singleAgentGraph({ mcpServers: [{ name: "kb", allowTools: ["search_kb", "echo_context"] }] });
    expect(await refusal(createAgent(h.db, "wider", "", wider, builder, "first"))).toEqual({ status: 422, paths: ["agents[0].mcpServers[0].allowTools[1]"] });
  });

  it("the worker itself starts nothing that is not registered, whatever the graph says", async () => {
    const mcp = createMcpConnections({ db: h.db, config: h.config, cwd: ROOT });
    try {
      await expect(mcp.listTools({ name: "pwn", transport: MARKER_STDIO })).rejects.toThrow(McpError);
      await expect(mcp.callTool({ name: "pwn" }, "anything", {}, { zap: {}, context: {} })).rejects.toThrow(/not registered/);
    } finally {
      await mcp.closeAll();
    }
    expect(existsSync(MARKER), "the marker command must never have run").toBe(false);
  });
});

describe("the stdio allowlist", () => {
  it("refuses to register a command that is not on it (422 naming transport.command)", async () => {
    const refused = await refusal(registerMcpServer(h, { name: "marker", transport: MARKER_STDIO }));
    expect(refused).toEqual({ status: 422, paths: ["transport.command"] });
    expect(await h.db.mcpServer.findUnique({ where: { name: "marker" } })).toBeNull();
  });

  it("the worker does not start a registered row whose command is not on it (registered before the list shrank)", async () => {
    await insertMcpServerRow(h.db, { name: "stale", command: MARKER_STDIO.command, args: MARKER_STDIO.args });
    const mcp = createMcpConnections({ db: h.db, config: h.config, cwd: ROOT });
    try {
      await expect(mcp.listTools({ name: "stale" })).rejects.toThrow(/not on the operator's allowlist/);
    } finally {
      await mcp.closeAll();
    }
    const discovered = await discoverTools({ db: h.db, temporal: h.client, taskQueue: h.taskQueue }, "stale", admin);
    expect(discovered).toEqual({ ok: false, reason: expect.stringMatching(/not on the operator's allowlist/) });
    expect(existsSync(MARKER), "the marker command must never have run").toBe(false);
  });
});

/** Relative imports of a source file, resolved to files (bare package names are returned as they are). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g)].map((m) => m[1] ?? "");
  return specifiers.map((s) => {
    if (!s.startsWith(".") && !s.startsWith("@/")) return s;
    const base = s.startsWith("@/") ? path.join(ROOT, s.slice(2)) : path.resolve(path.dirname(file), s);
    return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((c) => existsSync(c) && !c.endsWith("/")) ?? base;
  });
}

describe("discovery runs in the worker, never in the web process", () => {
  it("the web side's discovery code imports no process spawning and nothing of worker/", () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const queue = [path.join(ROOT, "lib/mcp/server/discover.ts"), path.join(ROOT, "lib/actions/discover-mcp-tools.ts"), path.join(ROOT, "lib/mcp/server/web.ts")];
    for (let file = queue.pop(); file; file = queue.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      for (const target of importsOf(file)) {
        if (path.isAbsolute(target)) {
          if (existsSync(target) && /\.(ts|tsx)$/.test(target)) queue.push(target);
        } else packages.add(target);
      }
    }
    const intoWorker = [...seen].filter((f) => path.relative(ROOT, f).startsWith("worker/"));
    expect(intoWorker, "the web process must not load worker code").toEqual([]);
    expect([...packages].filter((p) => /child_process|@modelcontextprotocol|cross-spawn|execa/.test(p))).toEqual([]);
  });

  it("lists a registered server's tools through a harness worker, and audits it", async () => {
    const result = await discoverTools({ db: h.db, temporal: h.client, taskQueue: h.taskQueue }, "kb", admin);
    expect(result.ok && result.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["search_kb", "create_ticket", "echo_context", "env_names"]));
    const audit = await h.db.auditEvent.findFirst({ where: { action: "mcp_server.discovered", target: "kb" }, orderBy: { seq: "desc" } });
    expect(audit?.actorId).toBe(admin.id);
  });

  it("shows a builder only the tools the admin allowed (an admin sees all, to choose them)", async () => {
    const builder = await h.db.user.findFirstOrThrow({ where: { role: "builder" }, select: { id: true, role: true } });
    const result = await discoverTools({ db: h.db, temporal: h.client, taskQueue: h.taskQueue }, "kb", builder);
    expect(result.ok && result.tools.map((t) => t.name).sort()).toEqual(["create_ticket", "search_kb"]);
  });
});

describe("the child's environment", () => {
  it("holds PATH, a private HOME and the server's declared variables, never the worker's secrets", async () => {
    const saved = { AUTH_SECRET: process.env.AUTH_SECRET, DATABASE_URL: process.env.DATABASE_URL };
    process.env.AUTH_SECRET = "worker-auth-secret-that-must-not-leak-0123456789";
    process.env.DATABASE_URL = "postgresql://zap:hunter2@db.internal/zap";
    try {
      await registerMcpServer(h, { name: "envprobe", transport: DEMO_STDIO, secrets: { PROBE_TOKEN: "declared-value" } });
      const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ mcpServers: [{ name: "envprobe" }] }), task: "tool envprobe__env_names {}\nanswer: done" });
      await waitForStatus(h.engine, runId, ["completed"], 60_000);
      const events = await h.engine.getEvents(runId);
      const result = events.find((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
      expect(result?.outcome, result?.result).toBe("ok");
      const { names, home } = JSON.parse(result?.result ?? "{}") as { names: string[]; home: string };
      expect(names).not.toContain("AUTH_SECRET");
      expect(names).not.toContain("DATABASE_URL");
      expect(names.filter((n) => !["PATH", "HOME", "PROBE_TOKEN"].includes(n)), "nothing else of the worker's environment").toEqual([]);
      expect(names).toEqual(expect.arrayContaining(["PATH", "HOME", "PROBE_TOKEN"]));
      expect(home.startsWith(os.tmpdir()) && home !== os.homedir(), `HOME is a private temp dir, got ${home}`).toBe(true);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  }, 90_000);
});
