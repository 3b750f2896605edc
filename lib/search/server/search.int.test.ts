// Search across runs (issue 26 §4) on SQLite and PostgreSQL: ledger batches
// written through the ledger's writer are searchable once derived — numbers, words
// in any case, tool arguments and results, errors, a sub-run's words under its
// root — each hit naming its span; a replayed batch adds no second hit; the
// search combines with the runs list's filters and the tool and model filters;
// snippets are text; a query FTS or tsquery would choke on is just words, and a
// query with no word is a 422 naming `q`. The "stuck or burning" view finds
// exactly the stuck, retrying and burning runs; the backfill indexes an older ledger once.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import type { SessionUser } from "../../auth/server/session";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { freePort } from "../../../scripts/test-support/ports";
import { useBlockDatabase } from "../../../scripts/test-support/block-database";
import { writeLedgerGroup } from "../../run-ledger/write";
import { deriveQueued } from "../../run-ledger/deriver";
import type { LedgerBatch } from "../../contract/workflow";
import type { ChatMessage, RunEvent, TraceSpan } from "../../contract/types";
import type { RunListPage } from "../../runs/schemas";
import { bestHits, facetRootIds, searchRootIds } from "./query";
import { backfillSearchIndex } from "../../../scripts/search-backfill";

const viewer: SessionUser = { id: "viewer-1", email: "viewer@zap.local", name: "Vic", role: "viewer" };
vi.mock("../../auth/server/session", () => ({ requireUser: vi.fn(async () => viewer) }));
// No Temporal here: the list's statuses come from the ledger (a failed connect would cost a second a page).
vi.mock("../../engine/visibility", () => ({ readVisibility: vi.fn(async () => Promise.reject(new Error("no Temporal in this test"))) }));
// Before the config is first read: a priced model, so a run can burn money.
process.env.ZAP_MODEL_PRICES = "openai/gpt-4o=2.5/10";

const { listRunPage } = await import("../../runs/server/runs");
const { stuckOrBurning } = await import("../../runs/server/stuck-runs");
const { GET: listRoute } = await import("../../../app/api/runs/list/route");

const providers = await testProviders();
const NOW = Date.now();
const at = (ms: number) => new Date(NOW - 60 * 60_000 + ms).toISOString();

/** An event without its place in the ledger (the batch numbers and times them). */
type EventBody = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never;

interface RunSpec {
  runId: string;
  rootRunId?: string;
  parentRunId?: string;
  graph?: string;
  status?: LedgerBatch["summary"]["status"];
  task: string;
  events?: EventBody[];
  messages?: ChatMessage[];
  spans?: TraceSpan[];
  startedAt?: string;
}

const span = (id: string, kind: TraceSpan["kind"], attributes?: TraceSpan["attributes"], tokens?: TraceSpan["tokens"], name: string = kind): TraceSpan => ({
  id,
  parentId: kind === "run" ? null : "s1",
  kind,
  name,
  startedAt: at(0),
  endedAt: at(1000),
  status: "ok",
  attributes,
  tokens,
});

function batch(spec: RunSpec): LedgerBatch {
  const events = [{ type: "run_started", agentName: "main", task: spec.task, depth: 0 } as const, ...(spec.events ?? [])].map((e, i) => ({ ...e, seq: i + 1, at: at(i * 100) }) as RunEvent);
  return {
    run: { runId: spec.runId, rootRunId: spec.rootRunId ?? spec.runId, parentRunId: spec.parentRunId ?? null, agentName: "main", task: spec.task, context: {}, startedBy: "builder@zap.local", graphName: spec.graph ?? "support-triage", agentVersionId: null },
    summary: { status: spec.status ?? "completed", iteration: 1, usage: { inputTokens: 0, outputTokens: 0 }, pendingApprovals: 0, lastEventSeq: events.length, messageCount: spec.messages?.length ?? 0, generation: 0, output: null, error: null, startedAt: spec.startedAt ?? at(0), endedAt: null },
    events,
    spans: [span("s1", "run"), ...(spec.spans ?? [])],
    messages: (spec.messages ?? []).map((message, index) => ({ index, message })),
    approvals: [],
  };
}

const ORDER_RUN = batch({
  runId: "run-order",
  task: "The customer mentions Order 4417, which never arrived",
  events: [
    { type: "inference_started", iteration: 1, model: "demo/assistant" },
    { type: "tool_call_started", iteration: 1, callId: "c1", tool: "lookup_order", arguments: '{"order_id":"A-9921"}' },
    { type: "tool_call_completed", iteration: 1, callId: "c1", tool: "lookup_order", outcome: "ok", durationMs: 5, attempts: 1, result: '{"status":"lost in Rotterdam"}' },
  ],
  messages: [
    { role: "system", content: "You are a support agent for zanzibar" },
    { role: "user", content: "The customer mentions Order 4417, which never arrived" },
    { role: "assistant", content: "I will REFUND the parcel" },
  ],
  spans: [span("s2", "inference"), span("s3", "tool", { callId: "c1" }, undefined, "lookup_order")],
});
const FAILED_RUN = batch({
  runId: "run-failed",
  graph: "treasury",
  status: "failed",
  task: 'Transfer <script>alert("x")</script> to savings',
  events: [
    { type: "tool_call_started", iteration: 1, callId: "c9", tool: "transfer", arguments: '{"amount":5}' },
    { type: "error", kind: "tool", message: "bank gateway timeout quokka", callId: "c9" },
    { type: "run_failed", reason: "tool_error", message: "gave up on the gateway" },
  ],
  spans: [span("s4", "tool", { callId: "c9" }, undefined, "transfer")],
});
const PARENT = batch({ runId: "run-parent", task: "Plan a trip" });
const CHILD = batch({ runId: "run-parent/child", rootRunId: "run-parent", parentRunId: "run-parent", task: "Find museums in Wellington" });

const list = async (query: Record<string, string>) => listRunPage((await import("../../runs/schemas")).runFiltersSchema.parse(query));
const ids = (page: RunListPage) => page.rows.map((r) => r.runId);
const get = (path: string) => new NextRequest(`http://127.0.0.1${path}`, { headers: { host: "127.0.0.1" } });
const noParams = { params: Promise.resolve({} as Record<string, never>) };

describe.each(providers)("search across runs on $provider", ({ provider, available, create }) => {
  let database: TestDatabase;
  let db: Db;
  let restoreDatabase = () => {};

  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
    // The list's server modules read the database through getDb(): this one, of the provider the block is named for.
    restoreDatabase = useBlockDatabase(provider, database, db);
    process.env.TEMPORAL_ADDRESS = `127.0.0.1:${await freePort()}`;
    await writeLedgerGroup(db, [ORDER_RUN, FAILED_RUN, PARENT, CHILD]);
    // The index is derived after the ledger's transaction (lib/run-ledger/deriver.ts).
    await deriveQueued(db);
  });

  afterAll(async () => {
    if (!available) return;
    restoreDatabase();
    await db.$disconnect();
    await database.drop();
  });

  it.skipIf(!available)("finds numbers, words in any case, tool arguments and results, errors, and a sub-run's words under its root", async () => {
    expect(await searchRootIds(db, "order 4417")).toEqual(["run-order"]);
    expect(await searchRootIds(db, "4417")).toEqual(["run-order"]);
    expect(await searchRootIds(db, "refund"), "assistant messages, any case").toEqual(["run-order"]);
    expect(await searchRootIds(db, "A-9921"), "tool arguments").toEqual(["run-order"]);
    expect(await searchRootIds(db, "lookup_order rotterdam"), "every term in one text: the tool name goes with its arguments, not its result").toEqual([]);
    expect(await searchRootIds(db, "ROTTERDAM"), "tool results").toEqual(["run-order"]);
    expect(await searchRootIds(db, "quokka"), "errors").toEqual(["run-failed"]);
    expect(await searchRootIds(db, "wellington"), "a sub-run's task lists its root").toEqual(["run-parent"]);
    expect(await searchRootIds(db, "zanzibar"), "system prompts are not the run's words").toEqual([]);
    expect(await searchRootIds(db, "4418")).toEqual([]);
  });

  it.skipIf(!available)("a hit names the run and span holding the text, with a snippet of plain text", async () => {
    const hits = await bestHits(db, "rotterdam", ["run-order", "run-failed"]);
    expect([...hits.keys()]).toEqual(["run-order"]);
    expect(hits.get("run-order")).toMatchObject({ runId: "run-order", source: "tool_result", spanId: "s3" });
    const error = (await bestHits(db, "quokka", ["run-failed"])).get("run-failed");
    expect(error).toMatchObject({ source: "error", spanId: "s4" });
    const script = (await bestHits(db, "savings", ["run-failed"])).get("run-failed");
    expect(script?.snippet.map((p) => p.text).join(""), "the task's markup stays text").toContain('<script>alert("x")</script>');
    const child = (await bestHits(db, "museums", ["run-parent"])).get("run-parent");
    expect(child).toMatchObject({ runId: "run-parent/child", source: "task", spanId: "s1" });
  });

  it.skipIf(!available)("a replayed batch adds no second hit", async () => {
    const before = await db.searchDocument.count();
    await writeLedgerGroup(db, [ORDER_RUN, CHILD]);
    expect(await db.deriveQueueItem.count(), "a replay inserts nothing, so it queues nothing to derive").toBe(0);
    await deriveQueued(db);
    expect(await db.searchDocument.count()).toBe(before);
    expect(await db.searchDocument.count({ where: { runId: "run-order", source: "tool_arguments" } })).toBe(1);
  });

  it.skipIf(!available)("query text that is FTS or tsquery syntax is searched as words", async () => {
    for (const q of ['order" OR NEAR(4417', "4417 & !order | (", "order:* 4417'", "-4417 AND *"]) {
      expect(await searchRootIds(db, q), q).toEqual(expect.any(Array));
    }
    expect(await searchRootIds(db, '"ORDER" 4417*')).toEqual(["run-order"]);
  });

  it.skipIf(!available)("combines with the runs list's filters, and the tool and model filters", async () => {
    const page = await list({ q: "4417" });
    expect(ids(page)).toEqual(["run-order"]);
    expect(page.rows[0]?.match).toMatchObject({ spanId: expect.any(String) });
    expect(ids(await list({ q: "4417", status: "failed" }))).toEqual([]);
    expect(ids(await list({ q: "gateway", status: "failed", graph: "treasury" }))).toEqual(["run-failed"]);
    expect(ids(await list({ q: "gateway", graph: "support-triage" }))).toEqual([]);
    expect(ids(await list({ tool: "lookup_order" }))).toEqual(["run-order"]);
    expect(ids(await list({ tool: "transfer", q: "4417" }))).toEqual([]);
    expect(ids(await list({ model: "demo/assistant" }))).toEqual(["run-order"]);
    expect(await facetRootIds(db, "model", "openai/gpt-4o")).toEqual([]);
  });

  it.skipIf(!available)("the list route answers a query with no word, or too long, with a 422 naming q", async () => {
    for (const q of ["%22*()%22", "x".repeat(201)]) {
      const response = await listRoute(get(`/api/runs/list?q=${q}`), noParams);
      expect(response.status).toBe(422);
      const body = (await response.json()) as { error: { issues: { path: string }[] } };
      expect(body.error.issues.map((i) => i.path)).toEqual(["q"]);
    }
    const ok = await listRoute(get(`/api/runs/list?q=${encodeURIComponent('order" 4417')}`), noParams);
    expect(ok.status).toBe(200);
    expect(ids((await ok.json()) as RunListPage)).toEqual(["run-order"]);
  });

  it.skipIf(!available)("'stuck or burning' finds the retrying, quiet and burning running runs, and no other", async () => {
    const running = (runId: string, more: Partial<RunSpec> = {}) => batch({ runId, status: "thinking", task: `working ${runId}`, startedAt: new Date(NOW - 3 * 60_000).toISOString(), ...more });
    await writeLedgerGroup(db, [
      running("stuck-retry", {
        events: [{ type: "tool_call_completed", iteration: 1, callId: "r1", tool: "flaky_api", outcome: "ok", durationMs: 5, attempts: 3, result: "ok" }],
      }),
      running("stuck-quiet"),
      running("stuck-burning", { spans: [span("s2", "inference", undefined, { inputTokens: 10_000_000, outputTokens: 100_000 }, "openai/gpt-4o")] }),
      running("healthy", { spans: [span("s2", "inference", undefined, { inputTokens: 1_000, outputTokens: 100 }, "openai/gpt-4o")] }),
      batch({ runId: "done-with-retries", task: "done", events: [{ type: "tool_call_completed", iteration: 1, callId: "r1", tool: "flaky_api", outcome: "ok", durationMs: 5, attempts: 2, result: "ok" }] }),
    ]);
    await deriveQueued(db);
    // Its last write was 30 minutes ago (the ledger stamps updatedAt on each write).
    await db.run.update({ where: { id: "stuck-quiet" }, data: { updatedAt: new Date(NOW - 30 * 60_000) } });
    // A run quiet for 20 minutes because a call waits for an approver: said so, with the call to open.
    await writeLedgerGroup(db, [running("stuck-waiting", { status: "awaiting_approval" })]);
    await deriveQueued(db);
    await db.approvalRecord.create({
      data: { id: "approval-waiting", runId: "stuck-waiting", rootRunId: "stuck-waiting", agentName: "main", toolName: "ledger_transfer", toolCallId: "t1", arguments: "{}", requestedAt: new Date(NOW - 20 * 60_000), expiresAt: new Date(NOW + 60 * 60_000) },
    });
    await db.run.update({ where: { id: "stuck-waiting" }, data: { updatedAt: new Date(NOW - 20 * 60_000), pendingApprovals: 1 } });

    const found = await stuckOrBurning(db, { stuckMinutes: 10, burnPerMinute: 1 });
    expect([...found.keys()].sort()).toEqual(["stuck-burning", "stuck-quiet", "stuck-retry", "stuck-waiting"]);
    expect(found.get("stuck-retry")).toEqual({ reasons: ["a tool call needed retries"], waitingApproval: null });
    expect(found.get("stuck-quiet")?.reasons[0]).toMatch(/^no progress for 3\d min$/);
    expect(found.get("stuck-burning")?.reasons[0]).toMatch(/^\$\d+\.\d\d per minute$/);
    expect(found.get("stuck-waiting")?.reasons).toEqual([expect.stringMatching(/^waiting for an approver for 2\d min$/)]);
    expect(found.get("stuck-waiting")?.waitingApproval).toMatchObject({ approvalId: "approval-waiting", runId: "stuck-waiting", toolName: "ledger_transfer" });
    // Raised thresholds leave only the retrying run.
    expect([...(await stuckOrBurning(db, { stuckMinutes: 60, burnPerMinute: 100 })).keys()]).toEqual(["stuck-retry"]);
    const page = await list({ view: "stuck", stuckMinutes: "10", burnPerMinute: "1" });
    expect(ids(page).sort()).toEqual(["stuck-burning", "stuck-quiet", "stuck-retry", "stuck-waiting"]);
    expect(page.rows.every((r) => (r.stuck?.length ?? 0) > 0)).toBe(true);
    expect(page.rows.find((r) => r.runId === "stuck-waiting")?.waitingApproval?.approvalId).toBe("approval-waiting");
    // The waiting run ends here: the next test lists working runs too.
    await db.approvalRecord.delete({ where: { id: "approval-waiting" } });
  });

  it.skipIf(!available)("sorts by duration and by the whole tree's tokens and cost, unpriced last, and refuses an unknown sort", async () => {
    const ended = (spec: RunSpec, startMinAgo: number, seconds: number | null): LedgerBatch => {
      const b = batch({ ...spec, graph: "sorting", startedAt: new Date(NOW - startMinAgo * 60_000).toISOString() });
      return { ...b, summary: { ...b.summary, status: seconds === null ? "thinking" : "completed", endedAt: seconds === null ? null : new Date(NOW - startMinAgo * 60_000 + seconds * 1000).toISOString() } };
    };
    const gpt = (id: string, tokens: NonNullable<TraceSpan["tokens"]>) => span(id, "inference", undefined, tokens, "openai/gpt-4o");
    await writeLedgerGroup(db, [
      // a: 60 s, 5,000 tokens, $0.0125
      ended({ runId: "sort-a", task: "a", spans: [gpt("s2", { inputTokens: 5_000, outputTokens: 0 })] }, 50, 60),
      // b: 10 s, 2,000 own tokens ($0.02) and a sub-run's 4,000 ($0.01): 6,000 tokens, $0.03 in all
      ended({ runId: "sort-b", task: "b", spans: [gpt("s2", { inputTokens: 0, outputTokens: 2_000 })] }, 40, 10),
      ended({ runId: "sort-b/child", rootRunId: "sort-b", parentRunId: "sort-b", task: "b child", spans: [gpt("s2", { inputTokens: 4_000, outputTokens: 0 })] }, 40, 5),
      // c: still working for 30 min, 10,000 tokens of a model without a price
      ended({ runId: "sort-c", task: "c", spans: [span("s2", "inference", undefined, { inputTokens: 10_000, outputTokens: 0 }, "acme/unpriced")] }, 30, null),
    ]);
    await deriveQueued(db);
    const order = async (sort: string, direction?: string) => ids(await list({ graph: "sorting", sort, ...(direction ? { order: direction } : {}) }));
    expect(await order("started")).toEqual(["sort-c", "sort-b", "sort-a"]);
    expect(await order("started", "asc")).toEqual(["sort-a", "sort-b", "sort-c"]);
    expect(await order("duration")).toEqual(["sort-c", "sort-a", "sort-b"]);
    expect(await order("duration", "asc")).toEqual(["sort-b", "sort-a", "sort-c"]);
    expect(await order("tokens")).toEqual(["sort-c", "sort-b", "sort-a"]);
    expect(await order("cost")).toEqual(["sort-b", "sort-a", "sort-c"]);
    expect(await order("cost", "asc")).toEqual(["sort-a", "sort-b", "sort-c"]);
    // Paged: the second page of a sort continues it.
    expect(ids(await list({ graph: "sorting", sort: "tokens", pageSize: "2", page: "2" }))).toEqual(["sort-a"]);
    for (const bad of ["sort=price", "order=up"]) {
      const response = await listRoute(get(`/api/runs/list?${bad}`), noParams);
      expect(response.status, bad).toBe(422);
    }
  });

  it.skipIf(!available)("a ledger written before the index is indexed by the backfill, once", async () => {
    await db.searchDocument.deleteMany({ where: { runId: "run-order" } });
    expect(await searchRootIds(db, "4417"), "its texts left the full-text index with their rows").toEqual([]);
    expect(await backfillSearchIndex(db, 10)).toBe(1);
    expect(await searchRootIds(db, "4417")).toEqual(["run-order"]);
    expect((await bestHits(db, "rotterdam", ["run-order"])).get("run-order")).toMatchObject({ source: "tool_result", spanId: "s3" });
    const count = await db.searchDocument.count();
    expect(await backfillSearchIndex(db, 10), "nothing left to index").toBe(0);
    expect(await db.searchDocument.count()).toBe(count);
  });
});
