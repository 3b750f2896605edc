// The designer's storage on both providers: versions, conflicts, restore, run
// counts; the save action's role check with a real session lookup; and, by
// property, that malformed graphs sent to the save API never become a 500.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { appendVersion, createAgent, getVersion, listAgents, listVersions, restoreVersion, templateGraph } from "./store";
import { ConflictError, ValidationError } from "../../errors";
import { DEMO_MCP_SERVERS } from "../../mcp/demo";

const session = vi.hoisted(() => ({ userId: "", db: undefined as unknown }));
vi.mock("../../auth/server/auth", () => ({ auth: async () => (session.userId ? { user: { id: session.userId } } : null) }));
vi.mock("../../db/server/db", () => ({ getDb: () => session.db }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const { saveAgentVersionAction } = await import("../../actions/save-agent-version");
const { POST } = await import("../../../app/api/agents/[name]/versions/route");

const providers = await testProviders();
const PATH_FORMAT = /^(\(root\)|[A-Za-z_$][\w$]*)(\.[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*$/;

describe.each(providers)("designer storage on $provider", ({ provider, available, create }) => {
  let database: TestDatabase | undefined;
  let db: Db;
  const users = { builder: { id: "" }, admin: { id: "" }, viewer: { id: "" } };

  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
    for (const role of ["builder", "admin", "viewer"] as const) {
      users[role] = await db.user.create({ data: { email: `${role}-${Date.now()}@zap.local`, name: `${role} person`, role }, select: { id: true } });
    }
    // The demo templates name the demo MCP server: registered as the seed registers it.
    for (const server of DEMO_MCP_SERVERS) {
      await db.mcpServer.create({ data: { name: server.name, transport: server.transport, config: JSON.stringify(server.config), allowTools: JSON.stringify(server.allowTools) } });
    }
    session.db = db;
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  it.skipIf(!available)("refuses a save on a stale base, naming who saved in between, and keeps both versions intact", async () => {
    await createAgent(db, "conflict", "", templateGraph("blank"), users.builder, "Created");
    const graph = (await getVersion(db, "conflict")).graph;
    const mine = { ...graph, agents: [{ ...graph.agents[0]!, temperature: 0.5 }] };
    const theirs = { ...graph, agents: [{ ...graph.agents[0]!, temperature: 0.9 }] };
    const results = await Promise.allSettled([appendVersion(db, "conflict", { baseVersion: 1, graph: mine, message: "mine" }, users.builder), appendVersion(db, "conflict", { baseVersion: 1, graph: theirs, message: "theirs" }, users.admin)]);
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused, "exactly one of two saves on the same base wins").toHaveLength(1);
    const reason = (refused[0] as PromiseRejectedResult).reason as ConflictError;
    expect(reason).toBeInstanceOf(ConflictError);
    const winner = results.findIndex((r) => r.status === "fulfilled") === 0 ? "builder person" : "admin person";
    expect(reason.userMessage).toContain(`${winner} saved version 2`);
    expect((await listVersions(db, "conflict")).map((v) => v.version)).toEqual([2, 1]);
    expect((await getVersion(db, "conflict", 1)).graph.agents[0]?.temperature).toBe(0.2);
  });

  it.skipIf(!available)("restores an old version as the newest and counts runs per version", async () => {
    await createAgent(db, "history", "demo", templateGraph("support-triage"), users.builder, "From template");
    const v1 = await getVersion(db, "history", 1);
    const edited = { ...v1.graph, entryAgent: "billing" };
    await appendVersion(db, "history", { baseVersion: 1, graph: edited, message: "entry billing" }, users.builder);
    const row = await db.agentVersion.findFirstOrThrow({ where: { agent: { name: "history" }, version: 1 } });
    await db.run.createMany({ data: ["r1", "r2"].map((id) => ({ id: `${provider}-${id}`, rootRunId: `${provider}-${id}`, agentName: "triage", graphName: "history", agentVersionId: row.id, task: "t" })) });
    const restored = await restoreVersion(db, "history", 1, 2, users.admin);
    expect(restored).toMatchObject({ version: 3, restoredFrom: 1, message: "Restored v1", author: "admin person" });
    expect((await getVersion(db, "history")).graph.entryAgent).toBe("triage");
    expect((await listVersions(db, "history")).map((v) => [v.version, v.runs])).toEqual([[3, 0], [2, 0], [1, 2]]);
    const listed = (await listAgents(db)).find((a) => a.name === "history");
    expect(listed).toMatchObject({ latestVersion: 3, entryAgent: "triage", updatedBy: "admin person", lastRunStatus: "pending", invalid: null });
  });

  it.skipIf(!available)("refuses to read a stored graph that no longer validates", async () => {
    await createAgent(db, "damaged", "", templateGraph("blank"), users.builder, "Created");
    await db.agentVersion.updateMany({ where: { agent: { name: "damaged" } }, data: { graph: JSON.stringify({ entryAgent: "nobody", agents: [{ name: "main" }] }) } });
    await expect(getVersion(db, "damaged")).rejects.toBeInstanceOf(ValidationError);
    expect((await listAgents(db)).find((a) => a.name === "damaged")?.invalid).toContain("does not pass validation");
  });

  it.skipIf(!available)("the save action refuses a viewer whatever the input, and accepts a builder", async () => {
    await createAgent(db, "roles", "", templateGraph("blank"), users.builder, "Created");
    const graph = (await getVersion(db, "roles")).graph;
    session.userId = users.viewer.id;
    expect(await saveAgentVersionAction({ name: "roles", baseVersion: 1, message: "", graph })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(await saveAgentVersionAction({ bogus: true })).toMatchObject({ ok: false, error: { code: "forbidden" } });
    session.userId = users.builder.id;
    expect(await saveAgentVersionAction({ name: "roles", baseVersion: 1, message: "ok", graph })).toMatchObject({ ok: true, data: { version: 2, author: "builder person" } });
    expect(await listVersions(db, "roles")).toHaveLength(2);
  });

  it.skipIf(!available)("answers malformed graphs sent to the save API with 4xx and path-addressed issues, never a 500", async () => {
    session.userId = users.builder.id;
    await createAgent(db, "fuzz", "", templateGraph("support-triage"), users.builder, "Created");
    const valid = (await getVersion(db, "fuzz")).graph;
    const malformed = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({ entryAgent: fc.string({ maxLength: 10 }), agents: fc.array(fc.dictionary(fc.constantFrom("name", "model", "temperature", "subAgents", "tools", "approvalRules", "mcpServers"), fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 }) }),
      fc.tuple(fc.constantFrom("entryAgent", "agents", "limits", "layout"), fc.jsonValue({ maxDepth: 2 })).map(([key, value]) => ({ ...valid, [key]: value })),
    );
    await fc.assert(
      fc.asyncProperty(malformed, fc.integer({ min: -2, max: 3 }), async (graph, baseVersion) => {
        const request = new NextRequest("http://127.0.0.1/api/agents/fuzz/versions", { method: "POST", body: JSON.stringify({ baseVersion, graph }), headers: { "content-type": "application/json", origin: "http://127.0.0.1", host: "127.0.0.1" } });
        const response = await POST(request, { params: Promise.resolve({ name: "fuzz" }) });
        expect(response.status, await response.clone().text()).toBeLessThan(500);
        if (response.status === 422) {
          const issues = ((await response.json()) as { error: { issues: { path: string }[] } }).error.issues;
          expect(issues.length).toBeGreaterThan(0);
          for (const issue of issues) expect(issue.path).toMatch(PATH_FORMAT);
        }
      }),
      // Fewer on PostgreSQL: each run is a round trip through the API and the database.
      { numRuns: provider === "sqlite" ? 300 : 60 },
    );
  });
});
