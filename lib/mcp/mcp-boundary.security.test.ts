// Issue 14 §1: a builder could run any command on the web server and the
// worker through an inline MCP stdio server, and the child inherited every
// secret of the process. Each story below is an attack that used to work.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEngineHarness, singleAgentGraph, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { DEMO_STDIO, insertMcpServerRow, registerMcpServer, updateRegisteredMcpServer } from "../../scripts/test-support/mcp";
import { appendVersion, createAgent, importAgent } from "../agents/server/store";
import { writeWorkspacePolicy } from "../policy/store";
import { AppError } from "../errors";
import { parseEnv, type AppConfig } from "../config/env";
import { discoverTools } from "./server/discover";
import { childEnvironment, createMcpConnections, McpError } from "../../worker/tools/mcp";
import type { RunEvent } from "../contract/types";
import { scaledWait } from "../../scripts/test-support/wait-scale";

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

/** Like refusal, with each issue's message too. */
async function refusalIssues(promise: Promise<unknown>): Promise<{ status: number; issues: { path: string; message: string }[] }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, issues: error.issues.map((i) => ({ path: i.path, message: i.message })) };
    throw error;
  }
  throw new Error("expected the call to be refused, but it succeeded");
}

/** Issue 23 §2: what an admin typed as a "secret" of the allowed demo server to run code of their choosing on the worker. */
const NODE_OPTIONS_PAYLOAD = `--import=data:text/javascript,${encodeURIComponent(`import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(MARKER)}, "x")`)}`;

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

  it("a builder cannot make a tool a model may call into a guardrail check: refused at save, and the worker calls only the tools offered as checks", async () => {
    // create_ticket has a side effect; as a "check" it would run on every task with no approval.
    const ticketing = singleAgentGraph({ guardrails: [{ name: "g", kind: "input", check: { type: "custom", check: "kb__create_ticket" }, action: "log" }] });
    expect(await refusal(createAgent(h.db, "check-widen", "", ticketing, builder, "first"))).toEqual({ status: 422, paths: ["agents[0].guardrails[0].check.check"] });
    expect(await refusal(h.engine.startRun({ graph: ticketing, task: "hi" }))).toEqual({ status: 422, paths: ["agents[0].guardrails[0].check.check"] });
    const mcp = createMcpConnections({ db: h.db, config: h.config });
    try {
      const refused = await mcp.callCheck("kb", "create_ticket", "hi").catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(McpError);
      expect(refused).toMatchObject({ retryable: false, publicMessage: 'MCP server "kb" does not offer create_ticket as a guardrail check.' });
      await expect(mcp.callCheck("kb", "screen_text", "a confidential memo")).resolves.toMatchObject({ isError: false, structuredContent: { tripped: true } });
    } finally {
      await mcp.closeAll();
    }
  });

  it("the worker itself starts nothing that is not registered, whatever the graph says", async () => {
    const mcp = createMcpConnections({ db: h.db, config: h.config });
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
    const mcp = createMcpConnections({ db: h.db, config: h.config });
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
      await registerMcpServer(h, { name: "envprobe", transport: DEMO_STDIO, secrets: { KB_TOKEN: "declared-value" } });
      const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ mcpServers: [{ name: "envprobe" }] }), task: "tool envprobe__env_names {}\nanswer: done" });
      await waitForStatus(h.engine, runId, ["completed"], 60_000);
      const events = await h.engine.getEvents(runId);
      const result = events.find((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
      expect(result?.outcome, result?.result).toBe("ok");
      const { names, home, cwd } = JSON.parse(result?.result ?? "{}") as { names: string[]; home: string; cwd: string };
      expect(names).not.toContain("AUTH_SECRET");
      expect(names).not.toContain("DATABASE_URL");
      expect(names.filter((n) => !["PATH", "HOME", "KB_TOKEN"].includes(n)), "nothing else of the worker's environment").toEqual([]);
      expect(names).toEqual(expect.arrayContaining(["PATH", "HOME", "KB_TOKEN"]));
      expect(home.startsWith(os.tmpdir()) && home !== os.homedir(), `HOME is a private temp dir, got ${home}`).toBe(true);
      // Issue 23 §2: not the project root (whose .data/ holds the auth secret, the database and the key), but an empty private directory.
      expect(cwd, "the child does not start in the project root").not.toBe(ROOT);
      expect(path.relative(ROOT, cwd).startsWith(".."), `the working directory is outside the project, got ${cwd}`).toBe(true);
      expect(cwd.startsWith(os.tmpdir()) && cwd !== home, `the working directory is a private temp dir of its own, got ${cwd}`).toBe(true);
      expect(statSync(cwd).mode & 0o777, "owner-only").toBe(0o700);
      expect(readdirSync(cwd), "empty").toEqual([]);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  }, scaledWait(90_000));
});

describe("the operator's allowlist binds the child's environment (issue 23 §2)", () => {
  it.each([
    ["NODE_OPTIONS", NODE_OPTIONS_PAYLOAD],
    ["LD_PRELOAD", "/tmp/evil.so"],
    ["UNLISTED_TOKEN", "not among the names the demo entry allows"],
  ])("registering the allowed demo server with %s is refused with 422 naming the variable; nothing is saved", async (name, value) => {
    const server = `env_${name.toLowerCase()}`;
    const refused = await refusalIssues(registerMcpServer(h, { name: server, transport: DEMO_STDIO, secrets: { [name]: value } }));
    expect(refused.status).toBe(422);
    expect(refused.issues).toEqual([{ path: `secrets.${name}`, message: expect.stringContaining(name) }]);
    expect(await h.db.mcpServer.findUnique({ where: { name: server } })).toBeNull();
    expect(existsSync(MARKER), "the payload must never have run").toBe(false);
  });

  it("adding NODE_OPTIONS to the seeded demo server is refused (422 naming it); the row is unchanged", async () => {
    const before = await h.db.mcpServer.findUniqueOrThrow({ where: { name: "kb" } });
    const refused = await refusalIssues(updateRegisteredMcpServer(h, "kb", { secrets: { NODE_OPTIONS: NODE_OPTIONS_PAYLOAD } }));
    expect(refused).toEqual({ status: 422, issues: [{ path: "secrets.NODE_OPTIONS", message: expect.stringContaining("NODE_OPTIONS") }] });
    expect(await h.db.mcpServer.findUniqueOrThrow({ where: { name: "kb" } })).toEqual(before);
  });

  it("an allowlist entry cannot allow start-up variables: the configuration is refused, and a list built around it still refuses them", async () => {
    for (const name of ["NODE_OPTIONS", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "PYTHONSTARTUP", "BASH_ENV"]) {
      const list = JSON.stringify([{ command: "node", args: DEMO_STDIO.args, env: ["KB_TOKEN", name] }]);
      expect(() => parseEnv({ ZAP_MCP_STDIO_ALLOWLIST: list }), name).toThrow(name);
    }
    const lax = { ...h.config, mcpStdioAllowlist: [{ command: "node", args: DEMO_STDIO.args, env: ["KB_TOKEN", "NODE_OPTIONS", "LD_PRELOAD"] }] } as unknown as AppConfig;
    const refused = await refusalIssues(registerMcpServer({ db: h.db, config: lax }, { name: "lax", transport: DEMO_STDIO, secrets: { NODE_OPTIONS: NODE_OPTIONS_PAYLOAD, LD_PRELOAD: "/tmp/evil.so" } }));
    expect(refused.status).toBe(422);
    expect(refused.issues.map((i) => i.path).sort()).toEqual(["secrets.LD_PRELOAD", "secrets.NODE_OPTIONS"]);
    expect(await h.db.mcpServer.findUnique({ where: { name: "lax" } })).toBeNull();
  });

  it("the worker never passes a forbidden variable, even from a row written straight into the database", async () => {
    await insertMcpServerRow(h.db, { name: "injected", command: DEMO_STDIO.command, args: DEMO_STDIO.args, env: { KB_TOKEN: "fine", NODE_OPTIONS: NODE_OPTIONS_PAYLOAD } }, h.config);
    const mcp = createMcpConnections({ db: h.db, config: h.config });
    try {
      await expect(mcp.listTools({ name: "injected" })).rejects.toThrow(/NODE_OPTIONS/);
    } finally {
      await mcp.closeAll();
    }
    const discovered = await discoverTools({ db: h.db, temporal: h.client, taskQueue: h.taskQueue }, "injected", admin);
    expect(discovered).toEqual({ ok: false, reason: expect.stringMatching(/NODE_OPTIONS/) });
    expect(existsSync(MARKER), "the payload must never have run").toBe(false);
    // And the environment builder itself drops them, whatever it is given.
    const env = childEnvironment({ KB_TOKEN: "fine", NODE_OPTIONS: "x", LD_PRELOAD: "y", DYLD_INSERT_LIBRARIES: "z", PYTHONPATH: "p", BASH_ENV: "b", node_options: "x" }, "/tmp/h");
    expect(Object.keys(env).filter((k) => env[k] !== undefined).sort()).toEqual(["HOME", "KB_TOKEN", "PATH"]);
  }, scaledWait(60_000));

  it("compares command and arguments as a list, not a space-joined line", async () => {
    const joined = [
      { type: "stdio" as const, command: "node", args: ["--import tsx", "worker/tools/mcp-demo-server.ts"] },
      { type: "stdio" as const, command: "node --import", args: ["tsx", "worker/tools/mcp-demo-server.ts"] },
      { type: "stdio" as const, command: "node", args: ["--import", "tsx worker/tools/mcp-demo-server.ts"] },
    ];
    // The default list, and an operator's list written as a line.
    const lined = { ...h.config, mcpStdioAllowlist: parseEnv({ ZAP_MCP_STDIO_ALLOWLIST: "node --import tsx worker/tools/mcp-demo-server.ts" }).mcpStdioAllowlist };
    for (const config of [h.config, lined]) {
      for (const [i, transport] of joined.entries()) {
        const refused = await refusal(registerMcpServer({ db: h.db, config }, { name: `joined_${i}`, transport }));
        expect(refused, JSON.stringify(transport)).toEqual({ status: 422, paths: ["transport.command"] });
        expect(await h.db.mcpServer.findUnique({ where: { name: `joined_${i}` } })).toBeNull();
      }
    }
    await insertMcpServerRow(h.db, { name: "joined_row", command: "node", args: ["--import tsx", "worker/tools/mcp-demo-server.ts"] });
    const mcp = createMcpConnections({ db: h.db, config: h.config });
    try {
      await expect(mcp.listTools({ name: "joined_row" })).rejects.toThrow(/not on the operator's allowlist/);
    } finally {
      await mcp.closeAll();
    }
  });
});
