// Reads that need no live state come from the run ledger, and the queries
// left (pending approvals) fall back to it on any failure, within a deadline
// (issue 35 §1). Driven through the real routes and the TypeScript client
// against the shared Temporal dev server and a real worker, on SQLite and
// PostgreSQL: a run whose workflow task is in failed state, a finished run
// with no worker at all, a run whose query times out, and a run whose
// conversations are read while no worker answers.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import type { SessionUser } from "../auth/server/session";
import type { Engine } from "./client";
import { ZapClient } from "../client/zap-client";
import { conversationsQuery, pendingApprovalsQuery, userMessageSignal } from "../contract/definitions";
import type { ApprovalRequest, Conversation } from "../contract/types";
import type { RunSummaryWithPlan } from "../run-ledger/read";
import type { InboxItem } from "../inbox/schemas";
import { testProviders } from "../../scripts/test-support/databases";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { useBlockDatabase } from "../../scripts/test-support/block-database";
import { QUERY_DEADLINE_MS } from "./query-deadline";
import { PENDING_BUDGET_MS } from "./pending-approvals";

const viewer: SessionUser = { id: "viewer-1", email: "viewer@zap.local", name: "Vic", role: "viewer" };
vi.mock("../auth/server/session", () => ({ requireUser: vi.fn(async () => viewer) }));

const { GET: runRoute } = await import("../../app/api/runs/[runId]/route");
const { GET: runApprovalsRoute } = await import("../../app/api/runs/[runId]/approvals/route");
const { GET: inboxRoute } = await import("../../app/api/approvals/route");

const providers = await testProviders();
const holder = globalThis as typeof globalThis & { zapEngine?: Engine };
const APP = "http://127.0.0.1";

const get = (path: string) => new NextRequest(`${APP}${path}`, { headers: { host: "127.0.0.1" } });
const params = <P,>(value: P) => ({ params: Promise.resolve(value) });

async function getRunRoute(runId: string): Promise<{ status: number; body: { run?: RunSummaryWithPlan; error?: { message: string } } }> {
  const response = await runRoute(get(`/api/runs/${runId}`), params({ runId }));
  return { status: response.status, body: (await response.json()) as { run?: RunSummaryWithPlan; error?: { message: string } } };
}

async function getRunApprovals(runId: string): Promise<{ status: number; approvals: InboxItem[] }> {
  const response = await runApprovalsRoute(get(`/api/runs/${runId}/approvals`), params({ runId }));
  const body = (await response.json()) as { approvals?: InboxItem[] };
  return { status: response.status, approvals: body.approvals ?? [] };
}

async function getInbox(): Promise<{ status: number; approvals: InboxItem[] }> {
  const response = await inboxRoute(get("/api/approvals"), params({} as Record<string, never>));
  const body = (await response.json()) as { approvals?: InboxItem[] };
  return { status: response.status, approvals: body.approvals ?? [] };
}

/** The TypeScript client, its requests answered in-process by GET /api/runs/:runId (the only route waitForRun calls). */
const client = new ZapClient({
  baseUrl: APP,
  apiKey: "zap_in-process-test-key-0123456789",
  fetch: async (input, init) => {
    const url = new URL(String(input));
    const runId = /^\/api\/runs\/([^/]+)$/.exec(url.pathname)?.[1];
    if (!runId) return new Response(JSON.stringify({ error: { code: "not_found", message: url.pathname } }), { status: 404 });
    // Signed in as the viewer: the key header is dropped, as the session mock answers for it.
    const headers = new Headers(init?.headers);
    headers.delete("authorization");
    headers.set("host", "127.0.0.1");
    return runRoute(new NextRequest(url, { ...init, headers } as ConstructorParameters<typeof NextRequest>[1]), params({ runId: decodeURIComponent(runId) }));
  },
});

const teamGraph = {
  entryAgent: "lead",
  agents: [
    { name: "lead", model: "demo/lead", subAgents: ["billing", "shipping"] },
    { name: "billing", model: "demo/billing", description: "refunds and invoices", tools: ["calculator"] },
    { name: "shipping", model: "demo/shipping", description: "deliveries" },
  ],
  limits: { subAgentIdleTimeoutSeconds: 120, followUpWindowSeconds: 60 },
};
const teamTask = ["message billing: What is 2+2? && message shipping: Where is order A-1002?", "reply billing: And doubled?", "answer: team consulted"].join("\n");
const transferGraph = singleAgentGraph({ tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver", expiresInSeconds: 3600 }] });
const transferTask = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount},"memo":"refund"}`;

/**
 * Polls the task queue for workflow tasks and never answers one: queries reach
 * it and wait, as they would on a wedged worker. Stopped by aborting its poll.
 */
function silentPoller(h: EngineHarness, taskQueue: string): { stop(): void } {
  const controller = new AbortController();
  void (async () => {
    while (!controller.signal.aborted) {
      await h.client
        .withAbortSignal(controller.signal, () => h.client.workflowService.pollWorkflowTaskQueue({ namespace: h.config.temporal.namespace, taskQueue: { name: taskQueue }, identity: "silent-poller" }))
        .catch(() => undefined);
    }
  })();
  return { stop: () => controller.abort() };
}

/** Milliseconds `read` took, with its result. */
async function timed<T>(read: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = Date.now();
  const value = await read();
  return { ms: Date.now() - started, value };
}

describe.each(providers)("ledger reads on $provider", ({ provider, available, create }) => {
  let h: EngineHarness;
  let restoreDatabase = () => {};
  let stopWorker: () => Promise<void> = async () => undefined;
  /** Waits for a tool approval, then has its workflow task fail (set up before the worker stops). */
  let poisoned = "";
  /** Waits for a tool approval; its query will time out once the worker is gone. */
  let waiting = "";
  let waitingApproval: ApprovalRequest;
  /** Completed while the worker ran. */
  let finished = "";
  /** Talked to two sub-agents while the worker ran; `live` is what its workflow said of them then. */
  let team = "";
  let live: Conversation[] = [];

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ database: await create(), worker: false });
    stopWorker = await h.startWorker();
    // The route modules reach the database and the engine through these holders (lib/db/server/db.ts, lib/engine/server/engine.ts).
    restoreDatabase = useBlockDatabase(provider, h.database, h.db);
    holder.zapEngine = h.engine;
    process.env.TEMPORAL_ADDRESS ??= h.config.temporal.address;
    [poisoned, waiting, finished, team] = await Promise.all([
      h.engine.startRun({ graph: transferGraph, task: transferTask(1) }).then((r) => r.runId),
      h.engine.startRun({ graph: transferGraph, task: transferTask(2) }).then((r) => r.runId),
      h.engine.startRun({ graph: singleAgentGraph({}), task: "answer: done without a worker" }).then((r) => r.runId),
      h.engine.startRun({ graph: teamGraph, task: teamTask }).then((r) => r.runId),
    ]);
    await Promise.all([
      waitForStatus(h.engine, poisoned, ["awaiting_approval"]),
      waitForStatus(h.engine, waiting, ["awaiting_approval"]),
      waitForStatus(h.engine, finished, ["completed"]),
      waitForStatus(h.engine, team, ["completed"]),
    ]);
    live = await h.client.workflow.getHandle(team).query(conversationsQuery);
    expect(live.map((c) => [c.agentName, c.turns]), "the team run talked to both sub-agents").toEqual([["billing", 2], ["shipping", 1]]);
    [waitingApproval] = (await h.engine.getPendingApprovals(waiting)) as [ApprovalRequest];
    expect(waitingApproval, "the second transfer waits for an approver").toMatchObject({ status: "pending", toolName: "ledger_transfer" });
  });

  afterAll(async () => {
    if (!h) return;
    for (const runId of [poisoned, waiting, finished, team, ...live.map((c) => c.conversationId)]) await h.client.workflow.getHandle(runId).terminate().catch(() => undefined);
    restoreDatabase();
    delete holder.zapEngine;
    await h.stop();
  });

  it.skipIf(!available)("a run whose workflow task is in failed state answers GET /api/runs/:id with its ledger summary, and the inbox still answers", async () => {
    // A signal its handler throws on (as a bug in workflow code would): every workflow task of the run fails from now on.
    // The server refuses queries from the third attempt on (the SDK lets the second time out: AGENT_WORKFLOW_TASK_TIMEOUT).
    const handle = h.client.workflow.getHandle(poisoned);
    await handle.signal<[null]>(userMessageSignal.name, null);
    await eventually(
      () =>
        h.client.withDeadline(Date.now() + 1_000, () => handle.query(pendingApprovalsQuery)).then(
          () => "answered",
          (error: unknown) => String(error instanceof Error && error.cause instanceof Error ? error.cause.message : error),
        ),
      (outcome) => /workflow task in failed state/i.test(outcome),
      45_000,
      "the run's queries to fail with 'Workflow Task in failed state'",
    );

    const { status, body } = await getRunRoute(poisoned);
    expect(status, `GET /api/runs/:id answered ${JSON.stringify(body)}`).toBe(200);
    const stored = await h.db.run.findUniqueOrThrow({ where: { id: poisoned } });
    expect(body.run, "the ledger's summary").toMatchObject({ runId: poisoned, status: "awaiting_approval", pendingApprovals: 1, lastEventSeq: stored.lastEventSeq });

    // The run's own approvals: the ledger's record, marked unconfirmed (the run cannot say), not a 500.
    const own = await getRunApprovals(poisoned);
    expect(own.status).toBe(200);
    expect(own.approvals.map((a) => [a.runId, a.toolName, a.unconfirmed ?? false])).toEqual([[poisoned, "ledger_transfer", true]]);

    // The inbox: the healthy run's approval as its workflow says, the broken run's as the ledger recorded it.
    const inbox = await getInbox();
    expect(inbox.status).toBe(200);
    const mine = inbox.approvals.filter((a) => a.runId === poisoned || a.runId === waiting).map((a) => [a.runId, a.unconfirmed ?? false]);
    expect(mine).toEqual(expect.arrayContaining([[poisoned, true], [waiting, false]]));
    expect(mine).toHaveLength(2);

    // Its conversations (none) come from the ledger too.
    await expect(h.engine.getConversations(poisoned)).resolves.toEqual([]);
  });

  it.skipIf(!available)("waitForRun returns a finished run's outcome with no worker running at all: the ledger suffices", async () => {
    await stopWorker();
    const { ms, value } = await timed(() => client.waitForRun(finished, { timeoutMs: 10_000 }));
    expect(value).toMatchObject({ runId: finished, status: "completed", output: "done without a worker", error: null });
    // A query would have waited for a worker (up to its deadline) before anything answered.
    expect(ms, "answered without waiting for any worker").toBeLessThan(QUERY_DEADLINE_MS);
    expect(await client.getRun(waiting), "a waiting run reads the same way").toMatchObject({ runId: waiting, status: "awaiting_approval", pendingApprovals: 1 });
  });

  it.skipIf(!available)("a pending-approvals query that times out falls back to the ledger, within its deadline", async () => {
    // The worker is gone and a poller that takes tasks and never answers holds the queue (a wedged worker):
    // a query is delivered and then waits, so it can only time out.
    await stopWorker();
    const wedged = silentPoller(h, h.taskQueue);
    try {
      const handle = h.client.workflow.getHandle(waiting);
      const raw = await timed(() => h.client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(pendingApprovalsQuery)).then(() => null, (error: unknown) => error));
      expect(raw.value, "the query itself gets no answer").toBeInstanceOf(Error);
      expect(raw.ms, "it fails only at its deadline: it timed out").toBeGreaterThanOrEqual(QUERY_DEADLINE_MS - 100);

      const own = await timed(() => getRunApprovals(waiting));
      expect(own.value.status).toBe(200);
      expect(own.value.approvals.map((a) => [a.id, a.unconfirmed ?? false]), "the ledger's record of the waiting approval").toEqual([[waitingApproval.id, true]]);
      expect(own.ms, "one query's deadline, then the ledger").toBeLessThan(QUERY_DEADLINE_MS + 2_000);

      const inbox = await timed(() => getInbox());
      expect(inbox.value.status).toBe(200);
      expect(inbox.value.approvals.filter((a) => a.runId === waiting).map((a) => [a.id, a.unconfirmed ?? false])).toEqual([[waitingApproval.id, true]]);
      expect(inbox.ms, "the inbox's time budget, then the ledger").toBeLessThan(PENDING_BUDGET_MS + 2_000);
    } finally {
      wedged.stop();
    }
  });

  it.skipIf(!available)("a run's conversations, when its workflow does not answer, are the ledger's record of what the workflow said", async () => {
    await stopWorker();
    const { ms, value } = await timed(() => h.engine.getConversations(team));
    // Conversations started together may be listed in either order; each is the same.
    const byId = (list: Conversation[]) => new Map(list.map(({ startedAt, ...rest }) => [rest.conversationId, { ...rest, startedMs: Date.parse(startedAt) }]));
    const [fromLedger, fromWorkflow] = [byId(value), byId(live)];
    expect([...fromLedger.keys()].sort()).toEqual([...fromWorkflow.keys()].sort());
    for (const [id, conversation] of fromLedger) {
      const { startedMs, ...said } = fromWorkflow.get(id) ?? { startedMs: NaN };
      const { startedMs: recordedMs, ...recorded } = conversation;
      expect(recorded, id).toEqual(said);
      // The ledger's start is the conversation's first message, written just after the workflow started it (the
      // ledger writer's batch delay apart; 1.6 s on a machine at load 20, so the bound is a few seconds, not one).
      expect(Math.abs(recordedMs - startedMs), `${id} started`).toBeLessThan(5_000);
    }
    expect(ms, "within the query deadline").toBeLessThan(QUERY_DEADLINE_MS + 2_000);
  });
});
