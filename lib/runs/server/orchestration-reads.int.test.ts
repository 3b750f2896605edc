// What the runs pages read of orchestration, from ledger rows as the worker
// writes them: the list's "routed to" column and filter, a typed answer and a
// failure's details in the run header (and the engine's stored summary), and
// the span details of routing decisions, handoffs and rejected answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { freshSqlite, type TestDatabase } from "../../../scripts/test-support/databases";
import { freePort } from "../../../scripts/test-support/ports";
import { writeLedgerBatch } from "../../run-ledger/write";
import { readRunSummary } from "../../run-ledger/read";
import type { LedgerBatch } from "../../contract/workflow";
import type { FailureDetails, RoutingRecord, RunEvent, TraceSpan } from "../../contract/types";

const T0 = Date.parse("2026-03-01T10:00:00Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

let database: TestDatabase;
let db: Db;

function batch(runId: string, agentName: string, summary: Partial<LedgerBatch["summary"]>, events: RunEvent[], spans: TraceSpan[]): LedgerBatch {
  return {
    run: { runId, rootRunId: runId, parentRunId: null, agentName, task: `task of ${runId}`, context: {}, startedBy: "builder@zap.local", graphName: agentName, agentVersionId: null },
    summary: { status: "completed", iteration: 2, usage: { inputTokens: 0, outputTokens: 0 }, pendingApprovals: 0, lastEventSeq: events.length, messageCount: 0, generation: 0, output: null, error: null, startedAt: at(0), endedAt: at(5000), ...summary },
    events,
    spans,
    messages: [],
    approvals: [],
  };
}

const span = (id: string, kind: TraceSpan["kind"], name: string, startMs: number, attributes?: TraceSpan["attributes"]): TraceSpan => ({
  id,
  parentId: id === "s0" ? null : "s0",
  kind,
  name,
  startedAt: at(startMs),
  endedAt: at(startMs + 10),
  status: "ok",
  ...(attributes ? { attributes } : {}),
});

const decision = (attempt: number, chosen: string): RoutingRecord => ({ router: "help-desk", attempt, target: chosen, confidence: 0.9, reason: `attempt ${attempt}`, fallback: null, chosen, fallbackTaken: false, threshold: 0.7 });
const failure: FailureDetails = { errors: ["/total: must be number"], rawOutput: '{"total":"twelve"}' };

beforeAll(async () => {
  database = await freshSqlite();
  await applyMigrations(database.url);
  db = createDb(database.url);
  // The page's server modules read their configuration once; Temporal is absent (its statuses become a note).
  process.env.DATABASE_URL = database.url;
  process.env.TEMPORAL_ADDRESS = `127.0.0.1:${await freePort()}`;

  await writeLedgerBatch(
    db,
    batch(
      "routed-1",
      "help-desk",
      { routedTo: "general", output: '{\n  "answer": "ok"\n}', outputData: JSON.stringify({ answer: "ok", lines: [{ sku: "A", qty: 2 }] }) },
      [
        { seq: 1, at: at(100), type: "routing_decided", decision: decision(1, "billing") },
        { seq: 2, at: at(900), type: "routed_agent_failed", agentName: "billing", runId: "routed-1.billing-1", attempt: 1, reason: "tool_error" },
        { seq: 3, at: at(1000), type: "routing_decided", decision: decision(2, "general") },
      ],
      // The first routing span names no attempt (its place among routing spans says which), the second names its attempt.
      [span("s0", "run", "help-desk", 0), span("s1", "routing", "route", 100), span("s2", "routing", "route", 1000, { attempt: 2 })],
    ),
  );
  await writeLedgerBatch(
    db,
    batch(
      "typed-fail",
      "invoice-triage",
      { status: "failed", error: { reason: "validation_error", message: "The answer failed its schema after 2 repairs" } },
      [
        { seq: 1, at: at(100), type: "output_invalid", iteration: 1, attempt: 1, errors: ["/total: required"], repairing: true },
        { seq: 2, at: at(200), type: "tool_call_started", iteration: 2, callId: "call-2", tool: "return", arguments: '{"total":"twelve"}' },
        { seq: 3, at: at(300), type: "output_invalid", iteration: 2, attempt: 2, errors: failure.errors ?? [], repairing: false },
        { seq: 4, at: at(400), type: "run_failed", reason: "validation_error", message: "The answer failed its schema after 2 repairs", details: failure },
      ],
      [span("s0", "run", "invoice-triage", 0), span("s1", "iteration", "iteration 1", 50, { iteration: 1 }), span("s2", "iteration", "iteration 2", 150, { iteration: 2 }), span("s3", "tool", "return", 200, { callId: "call-2", validation_ok: false })],
    ),
  );
  await writeLedgerBatch(
    db,
    batch(
      "handed-1",
      "front-desk",
      { output: "Refunded." },
      [{ seq: 1, at: at(100), type: "handoff", from: "front-desk", to: "refund-specialist", reason: "wants a refund", depth: 1, context: "summary", messageIndex: 4 }],
      [span("s0", "run", "front-desk", 0), span("s1", "handoff", "front-desk → refund-specialist", 100)],
    ),
  );
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe("orchestration on the runs pages", () => {
  it("the list shows whom a router gave the task to and filters by it; an agent nobody was routed to matches nothing", async () => {
    const { listRunPage } = await import("./runs");
    const routed = await listRunPage({ routedTo: "general", page: 1, pageSize: 25 });
    expect(routed.rows.map((r) => [r.runId, r.routedTo])).toEqual([["routed-1", "general"]]);
    expect((await listRunPage({ routedTo: "billing", page: 1, pageSize: 25 })).total, "an agent tried but not chosen in the end is not the routed-to agent").toBe(0);
    const all = await listRunPage({ page: 1, pageSize: 25 });
    expect(all.rows.find((r) => r.runId === "handed-1")?.routedTo).toBeNull();
  });

  it("the header carries the typed answer, the routed-to agent and a failure's details; the stored summary carries the details too", async () => {
    const { runHeader } = await import("./runs");
    const routed = await runHeader("routed-1");
    expect(routed.typedOutput).toEqual({ data: { answer: "ok", lines: [{ sku: "A", qty: 2 }] } });
    expect(routed.routedTo).toBe("general");
    const failed = await runHeader("typed-fail");
    expect(failed.typedOutput).toBeNull();
    expect(failed.error).toEqual({ reason: "validation_error", message: "The answer failed its schema after 2 repairs", details: failure });
    expect((await readRunSummary(db, "typed-fail"))?.error?.details).toEqual(failure);
    expect((await runHeader("handed-1")).error).toBeNull();
  });

  it("a routing span's details are its decision, with the failure of the agent it chose", async () => {
    const { spanDetails } = await import("./details");
    const first = await spanDetails("routed-1", "s1");
    expect(first.events.map((e) => e.type)).toEqual(["routing_decided", "routed_agent_failed"]);
    expect(first.events[0]?.type === "routing_decided" && first.events[0].decision.chosen).toBe("billing");
    const second = await spanDetails("routed-1", "s2");
    expect(second.events.map((e) => (e.type === "routing_decided" ? `decided ${e.decision.attempt}` : e.type))).toEqual(["decided 2"]);
  });

  it("a handoff span's details are its handoff; an iteration's and a rejected return call's are the answers their schema refused", async () => {
    const { spanDetails } = await import("./details");
    const handoff = await spanDetails("handed-1", "s1");
    expect(handoff.events).toMatchObject([{ type: "handoff", from: "front-desk", to: "refund-specialist", reason: "wants a refund" }]);
    const firstIteration = await spanDetails("typed-fail", "s1");
    expect(firstIteration.events).toMatchObject([{ type: "output_invalid", iteration: 1, repairing: true }]);
    const call = await spanDetails("typed-fail", "s3");
    expect(call.span.attributes?.validation_ok).toBe(false);
    expect(call.events.map((e) => e.type)).toEqual(["tool_call_started", "output_invalid"]);
    expect(call.events.at(-1)).toMatchObject({ iteration: 2, repairing: false, errors: failure.errors });
  });

  it("a plan run's header names the runs waiting for a decision, a node whose sub-agent asks included", async () => {
    const { runHeader } = await import("./runs");
    const child = (runId: string, parentRunId: string, status: LedgerBatch["summary"]["status"]): LedgerBatch => {
      const b = batch(runId, "payer", { status, endedAt: null }, [], []);
      return { ...b, run: { ...b.run, rootRunId: "plan-1", parentRunId } };
    };
    await writeLedgerBatch(db, batch("plan-1", "planner", { status: "thinking", endedAt: null }, [], []));
    await writeLedgerBatch(db, child("plan-1.node-a-1", "plan-1", "awaiting_approval"));
    await writeLedgerBatch(db, child("plan-1.node-b-1", "plan-1", "thinking"));
    await writeLedgerBatch(db, child("plan-1.node-b-1.helper-1", "plan-1.node-b-1", "awaiting_approval"));
    await writeLedgerBatch(db, child("plan-1.node-c-1", "plan-1", "completed"));
    expect((await runHeader("plan-1")).awaitingApprovalRunIds.sort()).toEqual(["plan-1", "plan-1.node-a-1", "plan-1.node-b-1", "plan-1.node-b-1.helper-1"]);
    // A node's own page sees only its subtree.
    expect((await runHeader("plan-1.node-b-1")).awaitingApprovalRunIds.sort()).toEqual(["plan-1.node-b-1", "plan-1.node-b-1.helper-1"]);
    expect((await runHeader("plan-1.node-c-1")).awaitingApprovalRunIds).toEqual([]);
  });
});
