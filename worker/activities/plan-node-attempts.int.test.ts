// Attempts of an inline plan node's activity (issue 35 §3), deterministically:
// each attempt runs in a mock activity context of its own, against a real
// database (SQLite and PostgreSQL) and the worker's ledger writer. Every
// attempt writes the same run id and sequence numbers, and Temporal may start
// attempt 2 while attempt 1 still writes (its heartbeat timed out on a busy
// event loop): the ledger is fenced by attempt, so an older attempt's batch is
// refused (and logged), a newer attempt's first batch replaces what an older one
// wrote, and an attempt that lost its place writes no cancellation. The tokens
// an attempt spent travel in its heartbeat to the next one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActivityCancellationDetails, type LogLevel, type LogMetadata, type Logger } from "@temporalio/common";
import { MockActivityEnvironment } from "@temporalio/testing";
import { createDb, type Db } from "../../lib/db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import { agentSchema } from "../../lib/agents/schemas";
import type { LedgerBatch } from "../../lib/contract/workflow";
import type { RunEvent } from "../../lib/contract/types";
import { createLedgerWriter, writeLedgerBatch } from "../../lib/run-ledger/write";
import { deriveQueued } from "../../lib/run-ledger/deriver";
import { LedgerFencedError } from "../../lib/run-ledger/fence";
import type { ModelRegistry } from "../models/registry";
import type { InferenceRequest, InferenceResponse } from "../models/types";
import { createPlanNodeActivities, type PlanNodeInput, type PlanNodeOutput } from "./plan-node";

const providers = await testProviders();
const AT = "2026-01-01T00:00:00.000Z";
const CALL = { inputTokens: 100, outputTokens: 10 };

/** Each attempt's model: what its calls answer (a scripted provider per attempt). */
type Script = (request: InferenceRequest, call: number) => Promise<InferenceResponse>;
const answer = (text: string): Promise<InferenceResponse> => Promise.resolve({ content: text, toolCalls: [], usage: CALL, finishReason: "stop" });
const askTool = (): Promise<InferenceResponse> => Promise.resolve({ content: null, toolCalls: [{ id: "c1", name: "look", arguments: "{}" }], usage: CALL, finishReason: "tool-calls" });

class CapturingLogger implements Logger {
  readonly lines: { level: LogLevel; message: string }[] = [];
  log(level: LogLevel, message: string, _meta?: LogMetadata): void {
    this.lines.push({ level, message });
  }
  trace(message: string): void {
    this.log("TRACE", message);
  }
  debug(message: string): void {
    this.log("DEBUG", message);
  }
  info(message: string): void {
    this.log("INFO", message);
  }
  warn(message: string): void {
    this.log("WARN", message);
  }
  error(message: string): void {
    this.log("ERROR", message);
  }
}

function batch(runId: string, generation: number, events: RunEvent[], status: "thinking" | "completed" = "thinking"): LedgerBatch & { fence: { attempt: number } } {
  return {
    run: { runId, rootRunId: "plan", parentRunId: "plan", agentName: "w", task: "t", context: {}, startedBy: null, graphName: null, agentVersionId: null },
    summary: { status, iteration: 1, usage: { inputTokens: 0, outputTokens: 0 }, pendingApprovals: 0, lastEventSeq: events.at(-1)?.seq ?? 0, messageCount: 0, generation, output: null, error: null, startedAt: AT, endedAt: null },
    events,
    spans: [],
    messages: [],
    approvals: [],
    fence: { attempt: generation + 1 },
  };
}

describe.each(providers)("an inline plan node's attempts on $provider", ({ available, create }) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
  });
  afterAll(async () => {
    if (!available) return;
    await db.$disconnect();
    await database.drop();
  });

  /** One attempt of the node's activity: its own context (attempt number, the last heartbeat before it) and model. */
  function attempt(n: number, script: Script, options: { heartbeatDetails?: unknown } = {}) {
    const logger = new CapturingLogger();
    const env = new MockActivityEnvironment({ attempt: n, heartbeatDetails: options.heartbeatDetails }, { logger });
    const heartbeats: unknown[] = [];
    env.on("heartbeat", (details: unknown) => heartbeats.push(details));
    let calls = 0;
    const models: ModelRegistry = { resolve: () => ({ provider: { generate: (request) => script(request, ++calls) }, modelName: "scripted" }) };
    const activities = createPlanNodeActivities({ db, ledger: createLedgerWriter(db), models });
    const run = (runId: string): Promise<PlanNodeOutput> => env.run(activities.runPlanNode, input(runId));
    return { env, logger, heartbeats, run };
  }

  const input = (runId: string): PlanNodeInput => ({
    identity: { runId, rootRunId: "plan", parentRunId: "plan", agentName: "w", task: "part one", context: {}, startedBy: null, graphName: null, agentVersionId: null },
    agent: agentSchema.parse({ name: "w", model: "demo/scripted" }),
    results: [],
    depth: 1,
    startedAt: AT,
    tokenBudget: 100_000,
  });

  const eventsOf = async (runId: string) => (await db.runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((e) => JSON.parse(e.data) as RunEvent);
  const terminal = (events: RunEvent[]) => events.filter((e) => e.type === "run_completed" || e.type === "run_failed" || e.type === "run_cancelled");

  it.skipIf(!available)("the ledger refuses a batch of an older attempt once a newer one wrote, alone or grouped with it, naming both", async () => {
    const started: RunEvent = { type: "iteration_started", iteration: 1, seq: 1, at: AT };
    await writeLedgerBatch(db, batch("fenced-1", 1, [started]));
    const refused = await writeLedgerBatch(db, batch("fenced-1", 0, [{ ...started, seq: 2 }])).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LedgerFencedError);
    expect(String(refused)).toMatch(/fenced-1.*attempt 1.*attempt 2/);
    // Through the worker's writer, both in one group: the newer attempt's batch lands, the older one's alone fails.
    const writer = createLedgerWriter(db);
    const outcomes = await Promise.allSettled([writer.write(batch("fenced-2", 1, [started])), writer.write(batch("fenced-2", 0, [{ ...started, seq: 2 }])), writer.write(batch("other", 0, [started]))]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((await db.runEvent.findMany({ where: { runId: "fenced-2" } })).map((e) => e.seq)).toEqual([1]);
    expect((await db.run.findUniqueOrThrow({ where: { id: "fenced-2" } })).generation).toBe(1);
    // A batch without a fence is written as ever.
    await writeLedgerBatch(db, { ...batch("fenced-2", 0, [{ ...started, seq: 3 }]), fence: undefined });
    expect(await db.runEvent.count({ where: { runId: "fenced-2" } })).toBe(2);
  });

  it.skipIf(!available)("an older attempt that answers after a newer one finished is refused and logged; the run keeps the newer attempt's story", async () => {
    const second = attempt(2, () => answer("from attempt 2"));
    await second.run("node-late");
    const first = attempt(1, () => answer("from attempt 1"));
    const error = await first.run("node-late").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(first.logger.lines.find((l) => l.level === "WARN")?.message).toMatch(/node-late.*attempt 1.*refused.*attempt 2/);
    const events = await eventsOf("node-late");
    expect(terminal(events)).toEqual([expect.objectContaining({ type: "run_completed", output: "from attempt 2" })]);
    expect((await db.run.findUniqueOrThrow({ where: { id: "node-late" } })).output).toBe("from attempt 2");
  });

  it.skipIf(!available)("a newer attempt replaces what an older one wrote: one story, one ending, last", async () => {
    // Attempt 1 answered at once; attempt 2 (the one Temporal keeps) takes two model calls.
    await attempt(1, () => answer("from attempt 1")).run("node-over");
    const output = await attempt(2, (_r, call) => (call === 1 ? askTool() : answer("from attempt 2"))).run("node-over");
    expect(output).toMatchObject({ ok: true, text: "from attempt 2" });
    const events = await eventsOf("node-over");
    // Before: attempt 1's run_completed (seq 5) stayed, and attempt 2's later events followed it.
    expect(terminal(events)).toEqual([expect.objectContaining({ type: "run_completed", output: "from attempt 2" })]);
    expect(events.at(-1)?.type).toBe("run_completed");
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const messages = await db.runMessage.findMany({ where: { runId: "node-over" }, orderBy: { index: "asc" } });
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    // Attempt 1's queued rows are derived after attempt 2 replaced them: dropped, not indexed after the removal.
    await deriveQueued(db);
    expect(await db.searchDocument.count({ where: { runId: "node-over", text: { contains: "from attempt 1" } } })).toBe(0);
    expect(await db.searchDocument.count({ where: { runId: "node-over", text: { contains: "from attempt 2" } } }), "the newer attempt's answer is indexed").toBe(1);
  });

  it.skipIf(!available)("an attempt that lost its place (Temporal timed it out) writes no cancellation over the attempt that replaced it", async () => {
    const first = attempt(1, (request) => new Promise((_, reject) => request.signal?.addEventListener("abort", () => reject(new Error("aborted")))));
    const running = first.run("node-lost").catch((e: unknown) => e);
    // Attempt 1 shows its run as running (its model works past 500 ms), then Temporal starts attempt 2.
    await expect.poll(() => db.run.count({ where: { id: "node-lost" } }), { timeout: 5_000 }).toBe(1);
    await attempt(2, () => answer("from attempt 2")).run("node-lost");
    // Attempt 1 hears it was timed out (the heartbeat's reply: not found), not that the plan cancelled it.
    first.env.cancel("NOT_FOUND", new ActivityCancellationDetails({ notFound: true }));
    expect(await running).toBeInstanceOf(Error);
    const row = await db.run.findUniqueOrThrow({ where: { id: "node-lost" } });
    // Before: attempt 1 wrote run_cancelled, and the completed run's row said cancelled.
    expect(row).toMatchObject({ status: "completed", output: "from attempt 2" });
    expect(terminal(await eventsOf("node-lost"))).toEqual([expect.objectContaining({ type: "run_completed" })]);
  });

  it.skipIf(!available)("a cancel the plan asked for is still recorded by the attempt that holds the run", async () => {
    const first = attempt(1, (request) => new Promise((_, reject) => request.signal?.addEventListener("abort", () => reject(new Error("aborted")))));
    const running = first.run("node-cancelled").catch((e: unknown) => e);
    await expect.poll(() => db.run.count({ where: { id: "node-cancelled" } }), { timeout: 5_000 }).toBe(1);
    first.env.cancel("CANCELLED", new ActivityCancellationDetails({ cancelRequested: true }));
    expect(await running).toBeInstanceOf(Error);
    expect(await db.run.findUniqueOrThrow({ where: { id: "node-cancelled" } })).toMatchObject({ status: "cancelled" });
    expect(terminal(await eventsOf("node-cancelled")).map((e) => e.type)).toEqual(["run_cancelled"]);
  });

  it.skipIf(!available)("the tokens a failed attempt spent reach the next attempt through its heartbeat, and its failure", async () => {
    const first = attempt(1, (_r, call) => (call === 1 ? askTool() : Promise.reject(new Error("the provider dropped the connection"))));
    const failure = await first.run("node-spent").catch((e: unknown) => e);
    // The failure carries the tokens (the workflow reads them when this was the last attempt).
    expect(failure).toMatchObject({ details: [{ usage: CALL }] });
    const last = first.heartbeats.at(-1);
    expect(last).toMatchObject({ attempt: 1, usage: CALL });
    const output = await attempt(2, (_r, call) => (call === 1 ? askTool() : answer("done")), { heartbeatDetails: last }).run("node-spent");
    // Attempt 2 spent two calls; the run spent three.
    expect(output.usage).toEqual({ inputTokens: 300, outputTokens: 30 });
    expect(await db.run.findUniqueOrThrow({ where: { id: "node-spent" } })).toMatchObject({ inputTokens: 300, outputTokens: 30 });
  });
});
