// The JSON API's boundary, driven in-process against a real database and the
// shared Temporal dev server: route handlers are called with hand-built
// requests, as the web server would call them, with a signed-in builder.
// Each story is an attack (or a door that used to skip the audit) that worked
// on the code before this change.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import type { SessionUser } from "@/lib/auth/server/session";
import { startEngineHarness, type EngineHarness } from "@/scripts/test-support/engine-harness";
import { UPLOAD_MAX_BODY_BYTES } from "@/lib/attachments/schemas";

let currentUser: SessionUser;
vi.mock("@/lib/auth/server/session", () => ({ requireUser: vi.fn(async () => currentUser) }));
// Server actions revalidate pages; outside Next there is no page cache to clear.
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

const { POST: startRunRoute } = await import("./runs/route");
const { POST: followUpRoute } = await import("./runs/[runId]/messages/route");
const { POST: cancelRoute } = await import("./runs/[runId]/cancel/route");
const { POST: saveVersionRoute } = await import("./agents/[name]/versions/route");
const { startRunAction } = await import("@/lib/actions/start-run");
const { sendFollowUpAction } = await import("@/lib/actions/send-follow-up");
const { cancelRunAction } = await import("@/lib/actions/cancel-run");
const { createAgentAction } = await import("@/lib/actions/create-agent");
const { saveAgentVersionAction } = await import("@/lib/actions/save-agent-version");
const { restoreAgentVersionAction } = await import("@/lib/actions/restore-agent-version");
const { importAgentAction } = await import("@/lib/actions/import-agent");
const { duplicateAgentAction } = await import("@/lib/actions/duplicate-agent");
const { archiveAgentAction } = await import("@/lib/actions/archive-agent");

const APP = "http://127.0.0.1:3000";
const holder = globalThis as typeof globalThis & { zapDb?: unknown; zapEngine?: unknown };
let harness: EngineHarness;

beforeAll(async () => {
  // No worker: starting, signalling and cancelling a workflow need only Temporal.
  harness = await startEngineHarness({ worker: false });
  holder.zapDb = harness.db;
  holder.zapEngine = harness.engine;
  const builder = await harness.db.user.findFirstOrThrow({ where: { role: "builder" } });
  currentUser = { id: builder.id, email: builder.email, name: builder.name ?? "Builder", role: "builder" };
});

afterAll(async () => {
  delete holder.zapDb;
  delete holder.zapEngine;
  await harness?.stop();
});

type Init = { body?: BodyInit; headers?: Record<string, string>; method?: string };

/** A request as the web server hands it to a route: Host set, and by default the app's Origin and JSON. */
function request(path: string, init: Init = {}): NextRequest {
  const headers = { host: new URL(APP).host, origin: APP, "content-type": "application/json", ...init.headers };
  for (const [name, value] of Object.entries(headers)) if (value === "") delete headers[name as keyof typeof headers];
  return new NextRequest(`${APP}${path}`, { method: init.method ?? "POST", body: init.body, headers, duplex: "half" } as ConstructorParameters<typeof NextRequest>[1]);
}
const params = <P,>(value: P) => ({ params: Promise.resolve(value) });
const noParams = params({} as Record<string, never>);

async function counts() {
  const [runs, audits, versions] = await Promise.all([harness.db.run.count(), harness.db.auditEvent.count(), harness.db.agentVersion.count()]);
  return { runs, audits, versions };
}

/** Audit rows of one action on one target, with their actors. */
async function auditRows(action: string, target: string) {
  return harness.db.auditEvent.findMany({ where: { action, target }, select: { actorId: true } });
}

let agentSeq = 0;
async function freshAgent(): Promise<string> {
  const name = `http-${Date.now().toString(36)}-${agentSeq++}`;
  const created = await createAgentAction({ name, template: "blank" });
  expect(created.ok, JSON.stringify(created)).toBe(true);
  return name;
}

describe("mutating requests from anywhere but the app are refused before anything is written", () => {
  let agent: string;
  beforeEach(async () => {
    agent = await freshAgent();
  });

  it("a page on https://evil.example POSTs a run with the victim's cookies: 403, no run, no audit row", async () => {
    const before = await counts();
    for (const origin of ["https://evil.example", ""]) {
      const response = await startRunRoute(request("/api/runs", { body: JSON.stringify({ graph: agent, task: "wire the money" }), headers: { origin } }), noParams);
      expect(response.status, `Origin "${origin}"`).toBe(403);
      expect((await response.json()).error.message).toBe("Cross-origin requests are not accepted");
    }
    expect(await counts()).toEqual(before);
  });

  it("the same page tries to save a graph version: 403 and the history is unchanged", async () => {
    const before = await counts();
    const response = await saveVersionRoute(
      request(`/api/agents/${agent}/versions`, { body: JSON.stringify({ baseVersion: 1, message: "pwned", graph: { entryAgent: "x", agents: [{ name: "x" }] } }), headers: { origin: "https://evil.example" } }),
      params({ name: agent }),
    );
    expect(response.status).toBe(403);
    expect(await counts()).toEqual(before);
  });

  it("a form-style text/plain body (no CORS preflight) is refused with 415", async () => {
    const before = await counts();
    const response = await startRunRoute(request("/api/runs", { body: JSON.stringify({ graph: agent, task: "x" }), headers: { "content-type": "text/plain" } }), noParams);
    expect(response.status).toBe(415);
    expect(await counts()).toEqual(before);
  });

  it("a body declaring more than the route's cap (one 10 MB image as base64) is refused with 413 before it is read", async () => {
    const before = await counts();
    const response = await startRunRoute(request("/api/runs", { body: "{}", headers: { "content-length": String(UPLOAD_MAX_BODY_BYTES + 1) } }), noParams);
    expect(response.status).toBe(413);
    expect(await counts()).toEqual(before);
  });

  it("a chunked body without Content-Length that keeps growing is cut off at the cap with 413", async () => {
    const before = await counts();
    const chunk = new TextEncoder().encode(`{"graph":"${agent}","task":"${"x".repeat(64 * 1024)}`);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(chunk);
      },
    });
    const response = await startRunRoute(request("/api/runs", { body: endless }), noParams);
    expect(response.status).toBe(413);
    // The cap is one image as base64 (~13.4 MiB): the stream is abandoned at the chunk that passes it.
    expect(pulled, "the stream is abandoned once past the cap").toBeLessThanOrEqual(Math.ceil(UPLOAD_MAX_BODY_BYTES / chunk.length) + 2);
    expect(await counts()).toEqual(before);
  });
});

describe("inputs are strict and sized", () => {
  it("unknown keys are refused with 422 naming them; the dialog's model override is accepted", async () => {
    const agent = await freshAgent();
    const refused = await startRunRoute(request("/api/runs", { body: JSON.stringify({ graph: agent, task: "x", priority: "high" }) }), noParams);
    expect(refused.status).toBe(422);
    expect(JSON.stringify((await refused.json()).error.issues)).toContain("priority");
    const accepted = await startRunRoute(request("/api/runs", { body: JSON.stringify({ graph: agent, task: "x", model: "demo/fast" }) }), noParams);
    expect(accepted.status, JSON.stringify(await accepted.clone().json())).toBe(201);
  });

  it("a context over 64 KiB is refused with 422 naming the limit", async () => {
    const agent = await freshAgent();
    const before = await counts();
    const context = { blob: "x".repeat(70 * 1024) };
    const response = await startRunRoute(request("/api/runs", { body: JSON.stringify({ graph: agent, task: "x", context }) }), noParams);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.issues).toEqual([{ path: "context", message: expect.stringContaining("the limit is 64 KiB") }]);
    expect(await counts()).toEqual(before);
  });
});

describe("runs have owners: another builder's cancel and follow-up are refused, through the API and the actions", () => {
  it("refuses a stranger (403, nothing done, nothing audited), lets an admin act, and a role the policy names", async () => {
    const { getWorkspacePolicy, updateWorkspacePolicy } = await import("@/lib/policy/server/policy");
    const before = (await getWorkspacePolicy(harness.db)).policy;
    const owner = currentUser;
    const agent = await freshAgent();
    const started = await startRunAction({ graph: agent, task: "mine" });
    if (!started.ok) throw new Error(JSON.stringify(started.error));
    const { runId } = started.data;
    const other = await harness.db.user.upsert({
      where: { email: "second-builder@zap.local" },
      create: { email: "second-builder@zap.local", name: "Second builder", role: "builder" },
      update: { role: "builder" },
    });
    const adminRow = await harness.db.user.findFirstOrThrow({ where: { role: "admin" } });
    const admin: SessionUser = { id: adminRow.id, email: adminRow.email, name: "Admin", role: "admin" };
    try {
      currentUser = { id: other.id, email: other.email, name: "Second builder", role: "builder" };
      const cancel = await cancelRoute(request(`/api/runs/${runId}/cancel`, { headers: { "content-type": "" } }), params({ runId }));
      expect(cancel.status).toBe(403);
      expect(((await cancel.json()) as { error: { message: string } }).error.message).toMatch(new RegExp(`Only ${owner.email}, who started it, or an admin may cancel this run`));
      const followUp = await followUpRoute(request(`/api/runs/${runId}/messages`, { body: JSON.stringify({ content: "let me steer" }) }), params({ runId }));
      expect(followUp.status).toBe(403);
      const viaAction = await sendFollowUpAction({ runId, content: "let me steer" });
      expect(viaAction.ok).toBe(false);
      expect((await cancelRunAction({ runId })).ok).toBe(false);
      expect((await harness.client.workflow.getHandle(runId).describe()).status.name, "the run goes on").toBe("RUNNING");
      expect(await auditRows("run.cancelled", runId)).toEqual([]);
      expect(await auditRows("run.follow_up", runId)).toEqual([]);

      // The workspace may let builders act on each other's runs.
      await updateWorkspacePolicy(harness.db, admin, { ...before, othersRunsRole: "builder" });
      expect((await sendFollowUpAction({ runId, content: "steering, as the policy allows" })).ok).toBe(true);
      expect(await auditRows("run.follow_up", runId)).toEqual([{ actorId: other.id }]);
      await updateWorkspacePolicy(harness.db, admin, before);

      // An admin always may.
      currentUser = admin;
      expect((await cancelRoute(request(`/api/runs/${runId}/cancel`, { headers: { "content-type": "" } }), params({ runId }))).status).toBe(202);
      expect(await auditRows("run.cancelled", runId)).toEqual([{ actorId: admin.id }]);
    } finally {
      currentUser = owner;
      await updateWorkspacePolicy(harness.db, admin, before);
    }
  });
});

describe("every door writes exactly one audit row per mutation, with its actor", () => {
  it("runs: started, followed up and cancelled through the API and through the actions", async () => {
    const agent = await freshAgent();
    const viaRoute = await startRunRoute(request("/api/runs", { body: JSON.stringify({ graph: agent, task: "through the API" }) }), noParams);
    expect(viaRoute.status).toBe(201);
    const { runId: apiRun } = (await viaRoute.json()) as { runId: string };
    const viaAction = await startRunAction({ graph: agent, task: "through the dialog" });
    if (!viaAction.ok) throw new Error(JSON.stringify(viaAction.error));
    const actionRun = viaAction.data.runId;

    expect((await followUpRoute(request(`/api/runs/${apiRun}/messages`, { body: JSON.stringify({ content: "and also" }) }), params({ runId: apiRun }))).status).toBe(202);
    expect((await sendFollowUpAction({ runId: actionRun, content: "and also" })).ok).toBe(true);
    expect((await cancelRoute(request(`/api/runs/${apiRun}/cancel`, { headers: { "content-type": "" } }), params({ runId: apiRun }))).status).toBe(202);
    expect((await cancelRunAction({ runId: actionRun })).ok).toBe(true);

    for (const runId of [apiRun, actionRun]) {
      for (const action of ["run.started", "run.follow_up", "run.cancelled"]) {
        expect(await auditRows(action, runId), `${action} of ${runId === apiRun ? "the API's" : "the action's"} run`).toEqual([{ actorId: currentUser.id }]);
      }
    }
  });

  it("agents: created, saved (API and action), restored, imported, duplicated, archived and unarchived", async () => {
    const agent = await freshAgent();
    expect(await auditRows("agent.created", agent)).toEqual([{ actorId: currentUser.id }]);

    const graph = { entryAgent: "main", agents: [{ name: "main", systemPrompt: "v2" }] };
    const saved = await saveVersionRoute(request(`/api/agents/${agent}/versions`, { body: JSON.stringify({ baseVersion: 1, message: "v2", graph }) }), params({ name: agent }));
    expect(saved.status).toBe(201);
    expect((await saveAgentVersionAction({ name: agent, baseVersion: 2, message: "v3", graph: { ...graph, agents: [{ name: "main", systemPrompt: "v3" }] } })).ok).toBe(true);
    expect(await auditRows("agent.version_saved", agent), "one row per save, API and action").toEqual([{ actorId: currentUser.id }, { actorId: currentUser.id }]);

    expect((await restoreAgentVersionAction({ name: agent, version: 1, baseVersion: 3 })).ok).toBe(true);
    expect(await auditRows("agent.version_restored", agent)).toEqual([{ actorId: currentUser.id }]);

    const imported = `${agent}-imp`;
    expect((await importAgentAction({ name: imported, json: JSON.stringify(graph) })).ok).toBe(true);
    expect(await auditRows("agent.imported", imported)).toEqual([{ actorId: currentUser.id }]);
    expect(await auditRows("agent.created", imported), "an import is not also a create").toEqual([]);

    const copy = `${agent}-copy`;
    expect((await duplicateAgentAction({ name: agent, newName: copy })).ok).toBe(true);
    expect(await auditRows("agent.duplicated", copy)).toEqual([{ actorId: currentUser.id }]);

    expect((await archiveAgentAction({ name: agent, archived: true })).ok).toBe(true);
    expect((await archiveAgentAction({ name: agent, archived: false })).ok).toBe(true);
    expect(await auditRows("agent.archived", agent)).toEqual([{ actorId: currentUser.id }]);
    expect(await auditRows("agent.unarchived", agent)).toEqual([{ actorId: currentUser.id }]);
  });

  it("a mutation that fails writes no audit row", async () => {
    const agent = await freshAgent();
    const stale = await saveAgentVersionAction({ name: agent, baseVersion: 7, message: "stale", graph: { entryAgent: "main", agents: [{ name: "main" }] } });
    expect(stale.ok).toBe(false);
    expect(await auditRows("agent.version_saved", agent)).toEqual([]);
  });
});
