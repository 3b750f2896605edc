// `npm run agent -- schedules …` and `… webhooks …` (issue 39 §1, the CLI door
// of triggers), run as a user runs them: the CLI is spawned as a child process
// with ZAP_URL and ZAP_API_KEY, against an HTTP server on a real port whose
// requests are answered by the real route handlers (real API-key checks, a
// migrated and seeded SQLite database, the suite's Temporal dev server where
// the schedules are created; no worker, so nothing fires on its own). A
// builder creates, lists, shows, pauses, resumes and fires a schedule and
// rotates a webhook's secret (the new secret signs a delivery the old one no
// longer does); a viewer is refused with the server's message and no stack;
// usage errors exit 2.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "../test-support/api-callers";
import { bin, PROJECT_ROOT } from "./run";
import { signedHeaders } from "../../lib/webhooks/signature";
import { singleAgentGraph } from "../test-support/engine-harness";
import { saveAgentVersion } from "../../lib/agents/repository";
import { scaledWait } from "../test-support/wait-scale";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
// No browser session here: every request carries an API key, which the routes check themselves (lib/auth/server/api-keys.ts).
// (Auth.js itself does not load outside the security project, which inlines next-auth.)
vi.mock("@/lib/auth/server/auth", () => ({ auth: async () => null, signIn: async () => undefined }));

type RouteContext = { params: Promise<Record<string, string>> };
/** A route module's handlers (method signatures: each module's own params type fits). */
interface RouteModule {
  GET?(request: NextRequest, context: RouteContext): Promise<Response>;
  POST?(request: NextRequest, context: RouteContext): Promise<Response>;
  PATCH?(request: NextRequest, context: RouteContext): Promise<Response>;
  DELETE?(request: NextRequest, context: RouteContext): Promise<Response>;
}

const GRAPH = "cli-triggered";
let callers: ApiCallers;
let server: Server;
let origin: string;
let builder: KeyHolder;
let viewer: KeyHolder;
let routes: [RegExp, string[], RouteModule][];

/** Reads a node request into the Web request the route handlers take. */
async function toNextRequest(incoming: IncomingMessage): Promise<NextRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  return new NextRequest(`${origin}${incoming.url ?? "/"}`, { method: incoming.method, headers, body });
}

async function answer(incoming: IncomingMessage): Promise<Response> {
  const request = await toNextRequest(incoming);
  for (const [pattern, names, module] of routes) {
    const match = pattern.exec(request.nextUrl.pathname);
    if (!match) continue;
    const handler = module[request.method as keyof RouteModule];
    if (!handler) return Response.json({ error: { code: "method_not_allowed", message: "method not allowed" } }, { status: 405 });
    return handler(request, routeParams(Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]))));
  }
  return Response.json({ error: { code: "not_found", message: "no such route" } }, { status: 404 });
}

beforeAll(async () => {
  callers = await startApiCallers();
  const modules = {
    schedules: (await import("@/app/api/schedules/route")) as RouteModule,
    schedule: (await import("@/app/api/schedules/[scheduleId]/route")) as RouteModule,
    pause: (await import("@/app/api/schedules/[scheduleId]/pause/route")) as RouteModule,
    resume: (await import("@/app/api/schedules/[scheduleId]/resume/route")) as RouteModule,
    trigger: (await import("@/app/api/schedules/[scheduleId]/trigger/route")) as RouteModule,
    webhooks: (await import("@/app/api/webhooks/route")) as RouteModule,
    rotate: (await import("@/app/api/webhooks/[webhookId]/rotate/route")) as RouteModule,
    hook: (await import("@/app/api/hooks/[endpointId]/route")) as RouteModule,
  };
  routes = [
    [/^\/api\/schedules$/, [], modules.schedules],
    [/^\/api\/schedules\/([^/]+)$/, ["scheduleId"], modules.schedule],
    [/^\/api\/schedules\/([^/]+)\/pause$/, ["scheduleId"], modules.pause],
    [/^\/api\/schedules\/([^/]+)\/resume$/, ["scheduleId"], modules.resume],
    [/^\/api\/schedules\/([^/]+)\/trigger$/, ["scheduleId"], modules.trigger],
    [/^\/api\/webhooks$/, [], modules.webhooks],
    [/^\/api\/webhooks\/([^/]+)\/rotate$/, ["webhookId"], modules.rotate],
    [/^\/api\/hooks\/([^/]+)$/, ["endpointId"], modules.hook],
  ];
  server = createServer((incoming, outgoing) => {
    answer(incoming).then(
      async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      },
      (error: unknown) => outgoing.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  builder = await callers.holder("builder", "cli-builder");
  viewer = await callers.holder("viewer", "cli-viewer");
  await saveAgentVersion(callers.db, GRAPH, singleAgentGraph({ name: "main" }), { createdById: builder.id });
}, scaledWait(120_000));

afterAll(async () => {
  // Schedules left in Temporal would outlive the test's database.
  const schedule = await import("@/app/api/schedules/[scheduleId]/route");
  const { keyRequest } = await import("../test-support/api-callers");
  for (const row of (await callers?.db.schedule.findMany()) ?? []) await schedule.DELETE(keyRequest(builder.token, `/api/schedules/${row.id}`, { method: "DELETE" }), routeParams({ scheduleId: row.id }));
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await callers?.stop();
}, scaledWait(60_000));

/** The test process's environment without a server or key of its own. */
const inherited: NodeJS.ProcessEnv = { ...process.env };
delete inherited.ZAP_URL;
delete inherited.ZAP_API_KEY;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run agent -- <args>` as a child process, with this key and server in its environment (none when null). */
function cli(args: string[], token: string | null, env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin("tsx"), ["scripts/run-agent.ts", ...args], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...inherited, ...(token ? { ZAP_API_KEY: token, ZAP_URL: origin } : {}), ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const NO_STACK = /\bat .+:\d+:\d+\)?$/m;

describe("npm run agent -- schedules …", () => {
  it("a builder creates a schedule from a JSON file, lists it by graph, shows it, pauses, resumes and fires it; each change audited", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "zap-cli-"));
    const file = path.join(dir, "schedule.json");
    writeFileSync(file, JSON.stringify({ name: "nightly from the CLI", graph: GRAPH, cron: "0 3 * * *", timeZone: "Europe/Paris", task: "answer: checked" }));
    const created = await cli(["schedules", "create", file], builder.token);
    expect(created.code, created.stderr).toBe(0);
    const id = /created (sch_[A-Za-z0-9]+)/.exec(created.stdout)?.[1] ?? "";
    expect(id, created.stdout).not.toBe("");
    const row = await callers.db.schedule.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ graphName: GRAPH, cron: "0 3 * * *", ownerId: builder.id, paused: false });

    const listed = await cli(["schedules", "list", "--graph", GRAPH], builder.token);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${id}  nightly from the CLI  \\[${GRAPH}\\]  cron 0 3 \\* \\* \\* \\(Europe/Paris\\)  active  next: \\d{4}-`, "m"));
    const otherGraph = await cli(["schedules", "list", "--graph", "support-triage", "--json"], builder.token);
    expect(otherGraph.code, otherGraph.stderr).toBe(0);
    expect((JSON.parse(otherGraph.stdout) as { id: string }[]).map((s) => s.id), "another graph's list leaves it out").not.toContain(id);

    const shown = await cli(["schedules", "show", id], viewer.token);
    expect(shown.code, "a viewer reads it").toBe(0);
    expect(shown.stdout).toContain(`owner        ${builder.email}`);
    expect(shown.stdout).toContain("overlap      skip");

    const paused = await cli(["schedules", "pause", id, "--note", "maintenance window"], builder.token);
    expect(paused.code, paused.stderr).toBe(0);
    expect(await callers.db.schedule.findUniqueOrThrow({ where: { id } })).toMatchObject({ paused: true, pauseNote: "maintenance window" });
    const refusedFire = await cli(["schedules", "run-now", id], builder.token);
    expect(refusedFire.code, "a paused schedule is not fired").toBe(1);
    expect(refusedFire.stderr).toMatch(/^✗ .+\[HTTP 409\]$/m);

    const resumed = await cli(["schedules", "resume", id], builder.token);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await callers.db.schedule.findUniqueOrThrow({ where: { id } })).paused).toBe(false);
    const fired = await cli(["schedules", "run-now", id], builder.token);
    expect(fired.code, fired.stderr).toBe(0);
    expect(fired.stdout).toContain(`fired ${id} now`);

    const audited = await callers.db.auditEvent.findMany({ where: { target: id }, orderBy: { seq: "asc" }, select: { action: true, actorId: true } });
    expect(audited.map((event) => event.action)).toEqual(["schedule.created", "schedule.paused", "schedule.resumed", "schedule.triggered"]);
    expect(new Set(audited.map((event) => event.actorId)), "as the key's owner").toEqual(new Set([builder.id]));
  }, scaledWait(120_000));

  it("a viewer's change is refused with the server's one-line message, no stack, nothing changed; a bad file or id is answered clearly", async () => {
    const schedule = await callers.db.schedule.findFirstOrThrow({ where: { graphName: GRAPH } });
    const refused = await cli(["schedules", "pause", schedule.id], viewer.token);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^✗ .+\[HTTP 403\]$/m);
    expect(refused.stderr).not.toMatch(NO_STACK);
    expect((await callers.db.schedule.findUniqueOrThrow({ where: { id: schedule.id } })).paused).toBe(false);

    const missing = await cli(["schedules", "show", "sch_doesnotexist0"], viewer.token);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/\[HTTP 404\]/);

    const dir = mkdtempSync(path.join(tmpdir(), "zap-cli-"));
    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ name: "no spec", graph: GRAPH, task: "answer: x", overlap: "queue" }));
    const invalid = await cli(["schedules", "create", bad], builder.token);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr, "the field is named").toMatch(/overlap: .*\[HTTP 422\]/);
    expect(await callers.db.schedule.count({ where: { name: "no spec" } })).toBe(0);
  }, scaledWait(60_000));

  it("usage errors exit 2 with the usage: no command, no id, an unknown option, no server, no key", async () => {
    const cases: [string, string[], string | null, RegExp][] = [
      ["no command", ["schedules"], builder.token, /schedules needs a command/],
      ["no id", ["schedules", "show"], builder.token, /schedules show needs a schedule id/],
      ["an unknown command", ["webhooks", "delete-all"], builder.token, /unknown webhooks command "delete-all"/],
      ["an unknown option", ["schedules", "list", "--verbose"], builder.token, /unknown option --verbose/],
      ["no server", ["schedules", "list"], null, /pass --server <url> or set ZAP_URL/],
      ["an unreadable file", ["schedules", "create", "/nonexistent/schedule.json"], builder.token, /cannot read \/nonexistent\/schedule.json: ENOENT/],
    ];
    for (const [what, args, token, message] of cases) {
      const result = await cli(args, token);
      expect(result.code, what).toBe(2);
      expect(result.stderr, what).toMatch(message);
      expect(result.stderr, what).not.toMatch(NO_STACK);
    }
    const noKey = await cli(["schedules", "list", "--server", origin], null);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/no API key for .+: set ZAP_API_KEY or pass --api-key-file/);
  }, scaledWait(90_000));
});

describe("npm run agent -- webhooks …", () => {
  it("lists a graph's endpoints and rotates a secret: the new secret is printed once and signs a delivery the old one no longer does", async () => {
    const webhooks = (await import("@/app/api/webhooks/route")) as RouteModule;
    const { keyRequest } = await import("../test-support/api-callers");
    const made = await webhooks.POST?.(keyRequest(builder.token, "/api/webhooks", { method: "POST", body: { name: "from CI", graph: GRAPH } }), routeParams({}));
    const { webhook, secret: oldSecret } = (await made?.json()) as { webhook: { id: string }; secret: string };

    const listed = await cli(["webhooks", "list", "--graph", GRAPH], viewer.token);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${webhook.id}  from CI  \\[${GRAPH}\\]  enabled  /api/hooks/${webhook.id}  rotated: —$`, "m"));

    const viewerRotate = await cli(["webhooks", "rotate-secret", webhook.id], viewer.token);
    expect(viewerRotate.code, "a viewer may not rotate").toBe(1);
    expect(viewerRotate.stderr).toMatch(/\[HTTP 403\]/);

    const rotated = await cli(["webhooks", "rotate-secret", webhook.id], builder.token, { ZAP_URL: origin });
    expect(rotated.code, rotated.stderr).toBe(0);
    const newSecret = rotated.stdout.trim().split("\n").at(-1) ?? "";
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.stdout.split(newSecret).length - 1, "printed once").toBe(1);

    const deliver = (secret: string) => {
      const body = JSON.stringify({ task: "answer: from the hook" });
      return fetch(`${origin}/api/hooks/${webhook.id}`, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": crypto.randomUUID(), ...signedHeaders(secret, body) }, body });
    };
    expect((await deliver(oldSecret)).status, "the old secret no longer verifies").toBe(401);
    const accepted = await deliver(newSecret);
    expect(accepted.status, await accepted.clone().text()).toBe(202);
  }, scaledWait(90_000));
});
