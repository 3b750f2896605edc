// Route/action parity for the operations of a run (issue 15 §1): start,
// decide an approval, follow up and cancel, each through its server action and
// its route handler with the same input, over the real session check, a real
// database and a real worker: same result, same audit row (action, actor,
// target), same refusal for bad input, unknown keys and a role without the
// permission. Only "who is signed in" is the test's.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, auditHead, auditSince, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import { saveAgentVersion } from "../agents/repository";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const runsRoute = await import("@/app/api/runs/route");
const decideRoute = await import("@/app/api/runs/[runId]/approvals/[approvalId]/route");
const messagesRoute = await import("@/app/api/runs/[runId]/messages/route");
const cancelRoute = await import("@/app/api/runs/[runId]/cancel/route");
const bulkRoute = await import("@/app/api/approvals/decisions/route");
const { startRunAction } = await import("./start-run");
const { decideApprovalAction } = await import("./decide-approval");
const { bulkDecideApprovalsAction } = await import("./bulk-decide-approvals");
const { sendFollowUpAction } = await import("./send-follow-up");
const { cancelRunAction } = await import("./cancel-run");

let h: EngineHarness;
const ids: Record<string, string> = {};
/** A saved agent whose prompt needs `context.customer` and whose transfer waits for an approver. */
let agent: string;
beforeAll(async () => {
  h = await startEngineHarness();
  doors.db = h.db;
  doors.engine = h.engine;
  doors.config = h.config;
  for (const role of ["admin", "builder", "approver", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  agent = `parity-${randomUUID().slice(0, 8)}`;
  const graph = {
    entryAgent: "main",
    agents: [{ name: "main", model: "demo/test", systemPrompt: "Serve {{context.customer}}.", tools: ["ledger_transfer"] }],
    limits: { followUpWindowSeconds: 60 },
  };
  await saveAgentVersion(h.db, agent, graph, { createdById: ids.admin ?? null });
});
afterAll(async () => h?.stop());

const as = (role: string) => {
  doors.userId = ids[role] ?? null;
};
const transfer = 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":1}\nanswer: done';
const launch = { task: transfer, context: { customer: "Ada" } };

const startViaAction = async (input: Record<string, unknown>) => actionOutcome(await startRunAction(input));
const startViaRoute = async (input: Record<string, unknown>) => routeOutcome(await runsRoute.POST(apiRequest("POST", "/api/runs", input), params({})));
const runIdOf = (outcome: Outcome): string => {
  if (!outcome.ok) throw new Error(`expected a run: ${JSON.stringify(outcome)}`);
  return (outcome.data as { runId: string }).runId;
};

/** Two runs of the agent, one per door, each waiting on its transfer's approval. */
let runs: { action: string; route: string };

describe("start a run", () => {
  it("the same input gives a run through either door, and the same run.started row", async () => {
    as("builder");
    const action = await audited(h.db, () => startViaAction({ graph: agent, ...launch }));
    const route = await audited(h.db, () => startViaRoute({ graph: agent, ...launch }));
    runs = { action: runIdOf(action.outcome), route: runIdOf(route.outcome) };
    for (const runId of Object.values(runs)) expect(runId).toMatch(/^main-/);
    expect(action.audit).toEqual([{ action: "run.started", actorId: ids.builder, target: runs.action }]);
    expect(route.audit).toEqual([{ action: "run.started", actorId: ids.builder, target: runs.route }]);
    for (const runId of Object.values(runs)) {
      const row = await h.db.auditEvent.findFirstOrThrow({ where: { action: "run.started", target: runId }, select: { details: true } });
      expect(JSON.parse(row.details), "the audit row names the graph as such").toEqual({ graph: agent, version: 1 });
    }
  });

  it("refuses the same way, and neither door starts or audits anything", async () => {
    as("builder");
    const cases: [string, Record<string, unknown>][] = [
      ["an empty task", { graph: agent, ...launch, task: "  " }],
      ["an unknown key", { graph: agent, ...launch, priority: "high" }],
      ["a missing placeholder", { graph: agent, task: transfer }],
      ["a model that does not exist", { graph: agent, ...launch, model: "gpt-4" }],
      ["a graph name with a dot", { graph: "support.triage", ...launch }],
      ["no such saved agent", { graph: "nobody-here", ...launch }],
      ["the old key agent for the graph", { agent, ...launch }],
      ["no such version", { graph: agent, ...launch, version: 9 }],
    ];
    for (const [what, input] of cases) {
      const runsBefore = await h.db.run.count();
      const action = await audited(h.db, () => startViaAction(input));
      const route = await audited(h.db, () => startViaRoute(input));
      expectSameRefusal(route.outcome, action.outcome, what);
      expect([...action.audit, ...route.audit], `${what}: nothing audited`).toEqual([]);
      expect(await h.db.run.count(), `${what}: no run created`).toBe(runsBefore);
    }
    // A caller still sending the graph as `agent` is told so by name, not given a run of something else.
    const renamed = await startViaRoute({ agent, ...launch });
    expect(renamed).toMatchObject({ ok: false, status: 422 });
    expect(renamed.ok ? [] : renamed.error.issues).toEqual(expect.arrayContaining([{ path: "(root)", message: 'Unrecognized key: "agent"' }]));
    const missing = await startViaRoute({ graph: "nobody-here", ...launch });
    expect(missing.ok ? null : missing.error.message, "a not-found error is one sentence").toBe('There is no saved agent named "nobody-here"');
    await expect(h.engine.startRun({ graphName: "nobody-here", task: "x" }), "the TypeScript client says the same").rejects.toThrow('There is no saved agent named "nobody-here"');
    await expect(h.engine.startRun({ graphName: agent, version: 9, task: "x" })).rejects.toThrow(`The saved agent "${agent}" has no version 9`);
    as("viewer");
    expectSameRefusal(await startViaRoute({ graph: agent, ...launch }), await startViaAction({ graph: agent, ...launch }), "a viewer");
  });
});

describe("list runs", () => {
  const list = async (query: string) => runsRoute.GET(apiRequest("GET", `/api/runs${query}`), params({}));
  const listed = async (query: string) => ((await (await list(query)).json()) as { runs: { runId: string }[] }).runs.map((r) => r.runId).sort();

  it("?graph= names the saved agent graph and ?entryAgent= its entry agent; the old ?agent= is refused by name", async () => {
    as("viewer");
    const both = Object.values(runs).sort();
    expect(await eventually(() => listed(`?graph=${agent}`), (ids) => ids.length === 2, 20_000, "both runs listed by graph")).toEqual(both);
    const byEntry = await eventually(() => listed("?entryAgent=main&limit=500"), (ids) => both.every((id) => ids.includes(id)), 20_000, "both runs listed by entry agent");
    expect(byEntry).toEqual(expect.arrayContaining(both));
    const rows = ((await (await list(`?graph=${agent}`)).json()) as { runs: Record<string, unknown>[] }).runs;
    expect(rows.map((r) => r.entryAgent), "each row names its entry agent as such").toEqual(["main", "main"]);
    expect(await listed("?graph=main"), "the entry agent is not a graph").toEqual([]);
    const old = await list(`?agent=${agent}`);
    expect(old.status).toBe(422);
    expect((await old.json()).error.issues).toEqual([{ path: "(root)", message: 'Unrecognized key: "agent"' }]);
  });
});

describe("decide an approval", () => {
  const pending = async (runId: string) => {
    await waitForStatus(h.engine, runId, ["awaiting_approval"]);
    const [approval] = await h.engine.getPendingApprovals(runId);
    if (!approval) throw new Error(`run ${runId} has no pending approval`);
    return approval.id;
  };
  const decideViaAction = async (runId: string, approvalId: string, body: Record<string, unknown>) => actionOutcome(await decideApprovalAction({ runId, approvalId, ...body }));
  const decideViaRoute = async (runId: string, approvalId: string, body: Record<string, unknown>) =>
    routeOutcome(await decideRoute.POST(apiRequest("POST", `/api/runs/${runId}/approvals/${approvalId}`, body), params({ runId, approvalId })), "approval");

  it("refuses the same way before anything is decided: no reason to reject, edits on a rejection, unknown key, a builder", async () => {
    const [a, b] = [await pending(runs.action), await pending(runs.route)];
    as("approver");
    const cases: [string, Record<string, unknown>][] = [
      ["a rejection without a reason", { approved: false }],
      ["edited arguments on a rejection", { approved: false, reason: "no", editedArguments: { amount: 2 } }],
      ["approved that is not a boolean", { approved: "yes" }],
      ["an unknown key", { approved: true, decidedBy: "someone else" }],
    ];
    for (const [what, body] of cases) {
      const head = await auditHead(h.db);
      expectSameRefusal(await decideViaRoute(runs.route, b, body), await decideViaAction(runs.action, a, body), what);
      expect(await auditSince(h.db, head), `${what}: nothing audited`).toEqual([]);
    }
    // The same run for both: the refusal names it.
    expectSameRefusal(await decideViaRoute(runs.route, "no-such-approval", { approved: true }), await decideViaAction(runs.route, "no-such-approval", { approved: true }), "an unknown approval");
    as("builder");
    expectSameRefusal(await decideViaRoute(runs.route, b, { approved: true }), await decideViaAction(runs.action, a, { approved: true }), "a builder");
  });

  it("the same decision gives the same approval and the same audit row; deciding again is refused the same way", async () => {
    const [a, b] = [await pending(runs.action), await pending(runs.route)];
    as("approver");
    const body = { approved: true, reason: "checked the invoice" };
    const head = await auditHead(h.db);
    const action = await decideViaAction(runs.action, a, body);
    const route = await decideViaRoute(runs.route, b, body);
    expect(action.ok, JSON.stringify(action)).toBe(true);
    // Ids and times differ between two runs by nature; everything else must match.
    const differs = (key: string) => ["id", "runId", "rootRunId", "at", "signature"].includes(key) || key.endsWith("At");
    const blank = (o: Outcome) => JSON.parse(JSON.stringify(o), (key: string, value: unknown) => (differs(key) ? "<differs>" : value));
    expect(blank(action)).toEqual(blank(route));
    // The workflow writes the decision's row with its approval record.
    const rows = await eventually(() => auditSince(h.db, head), (r) => r.length >= 2, 20_000, "both decisions audited");
    expect(rows).toEqual(
      expect.arrayContaining([
        { action: "approval.approved", actorId: ids.approver, target: `${runs.action}/${a}` },
        { action: "approval.approved", actorId: ids.approver, target: `${runs.route}/${b}` },
      ]),
    );
    expect(rows).toHaveLength(2);
    // Again on the same approval through both doors (the refusal names it and its decider).
    expectSameRefusal(await decideViaRoute(runs.route, b, body), await decideViaAction(runs.route, b, body), "a decision already made");
  });
});

describe("decide several approvals at once", () => {
  const bulkViaAction = async (body: Record<string, unknown>) => actionOutcome(await bulkDecideApprovalsAction(body));
  const bulkViaRoute = async (body: Record<string, unknown>) => routeOutcome(await bulkRoute.POST(apiRequest("POST", "/api/approvals/decisions", body), params({})));
  /** Two fresh runs per door, each waiting on its transfer's approval. */
  const waiting = async () => {
    as("builder");
    const started = await Promise.all([1, 2].map(async () => runIdOf(await startViaAction({ graph: agent, ...launch }))));
    return Promise.all(
      started.map(async (runId) => {
        await waitForStatus(h.engine, runId, ["awaiting_approval"]);
        const [approval] = await h.engine.getPendingApprovals(runId);
        if (!approval) throw new Error(`run ${runId} has no pending approval`);
        return { runId, approvalId: approval.id };
      }),
    );
  };

  it("the same selection gives the same outcomes and one approval row each; refusals match", async () => {
    const [a, b] = [await waiting(), await waiting()];
    as("approver");
    for (const [what, body] of [
      ["no selection", { items: [], approved: true }],
      ["a rejection without a reason", { items: a, approved: false }],
      ["an unknown key", { items: a, approved: true, decidedBy: "someone else" }],
      ["a malformed run id", { items: [{ runId: "not a run", approvalId: "x" }], approved: true }],
    ] as const) {
      const head = await auditHead(h.db);
      expectSameRefusal(await bulkViaRoute({ ...body }), await bulkViaAction({ ...body }), what);
      expect(await auditSince(h.db, head), `${what}: nothing audited`).toEqual([]);
    }
    as("builder");
    expectSameRefusal(await bulkViaRoute({ items: b, approved: true }), await bulkViaAction({ items: a, approved: true }), "a builder");

    as("approver");
    const head = await auditHead(h.db);
    const action = await bulkViaAction({ items: a, approved: true, reason: "batch checked" });
    const route = await bulkViaRoute({ items: b, approved: true, reason: "batch checked" });
    expect(action).toEqual({ ok: true, data: a.map(({ approvalId }) => ({ approvalId, ok: true, status: "approved" })) });
    expect(route).toEqual({ ok: true, data: b.map(({ approvalId }) => ({ approvalId, ok: true, status: "approved" })) });
    const rows = await eventually(() => auditSince(h.db, head), (r) => r.length >= 4, 20_000, "each decision audited");
    expect(rows).toHaveLength(4);
    expect(rows).toEqual(expect.arrayContaining([...a, ...b].map(({ runId, approvalId }) => ({ action: "approval.approved", actorId: ids.approver, target: `${runId}/${approvalId}` }))));

    // Again: each item fails on its own (not the whole request), in the same words through both doors.
    const again = [await bulkViaAction({ items: [a[0]], approved: true }), await bulkViaRoute({ items: [a[0]], approved: true })];
    expect(again[0]).toMatchObject({ ok: true, data: [{ ok: false }] });
    expect(again[1]).toEqual(again[0]);
  });
});

describe("follow up and cancel", () => {
  const followUpViaAction = async (runId: string, body: Record<string, unknown>) => actionOutcome(await sendFollowUpAction({ runId, ...body }));
  const followUpViaRoute = async (runId: string, body: Record<string, unknown>) =>
    routeOutcome(await messagesRoute.POST(apiRequest("POST", `/api/runs/${runId}/messages`, body), params({ runId })));
  const cancelViaAction = async (runId: string) => actionOutcome(await cancelRunAction({ runId }));
  const cancelViaRoute = async (runId: string) => routeOutcome(await cancelRoute.POST(apiRequest("POST", `/api/runs/${runId}/cancel`), params({ runId })));

  it("a follow-up: same answer and run.follow_up row; same refusals", async () => {
    for (const runId of Object.values(runs)) await waitForStatus(h.engine, runId, ["completed"]);
    as("builder");
    const body = { content: "answer: and once more" };
    const action = await audited(h.db, () => followUpViaAction(runs.action, body));
    const route = await audited(h.db, () => followUpViaRoute(runs.route, body));
    expect(action.outcome).toEqual({ ok: true, data: { accepted: true } });
    expect(route.outcome).toEqual(action.outcome);
    expect(action.audit).toEqual([{ action: "run.follow_up", actorId: ids.builder, target: runs.action }]);
    expect(route.audit).toEqual([{ action: "run.follow_up", actorId: ids.builder, target: runs.route }]);

    for (const [what, input] of [
      ["an empty message", { content: " " }],
      ["an unknown key", { content: "hi", role: "system" }],
    ] as const) {
      expectSameRefusal(await followUpViaRoute(runs.route, input), await followUpViaAction(runs.action, input), what);
    }
    expectSameRefusal(await followUpViaRoute("main-unknown", body), await followUpViaAction("main-unknown", body), "an unknown run");
    // The route's path is the only place it takes the run from: a body naming another run is refused, not obeyed.
    const redirected = await followUpViaRoute(runs.route, { ...body, runId: runs.action });
    expect(redirected).toMatchObject({ ok: false, status: 422, error: { issues: [{ path: "runId", message: "given in the path; leave it out of the body" }] } });
    as("viewer");
    expectSameRefusal(await followUpViaRoute(runs.route, body), await followUpViaAction(runs.action, body), "a viewer");
  });

  it("a cancel: same answer and run.cancelled row; same refusals", async () => {
    as("viewer");
    expectSameRefusal(await cancelViaRoute(runs.route), await cancelViaAction(runs.action), "a viewer");
    as("builder");
    expectSameRefusal(await cancelViaRoute("main-unknown"), await cancelViaAction("main-unknown"), "an unknown run");
    expectSameRefusal(await cancelViaRoute("not a run id"), await cancelViaAction("not a run id"), "a malformed run id");
    const action = await audited(h.db, () => cancelViaAction(runs.action));
    const route = await audited(h.db, () => cancelViaRoute(runs.route));
    expect(action.outcome).toEqual({ ok: true, data: { accepted: true } });
    expect(route.outcome).toEqual(action.outcome);
    expect(action.audit).toEqual([{ action: "run.cancelled", actorId: ids.builder, target: runs.action }]);
    expect(route.audit).toEqual([{ action: "run.cancelled", actorId: ids.builder, target: runs.route }]);
  });
});
