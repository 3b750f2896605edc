// Writes to the run ledger: a run's row as it starts (the engine client), then
// everything the run does (the worker's activities). Every write after the start
// is idempotent (rows keyed by run id + sequence number or by id), so retries
// and workflow replays never duplicate or lose a row.
import type { Db } from "../db/prisma";
import { writeTransaction, type DbTransaction } from "../db/transactions";
import { retryReason } from "../db/contention";
import { appendAuditInTransaction } from "../audit/write";
import type { ApprovalRequest } from "../contract/types";
import type { PlanOutcome } from "../contract/plan";
import type { ApprovalOutcomeRecord, LedgerBatch } from "../contract/workflow";
import { queueDerivedRows, type InsertedLedgerRows } from "./derived";
import { applyFence, fenceOf, mixesAttempts, type FencedLedgerBatch } from "./fence";

function spanData(span: LedgerBatch["spans"][number]): string {
  return JSON.stringify({ tokens: span.tokens, attempts: span.attempts, attributes: span.attributes });
}

/** Keys already present among `keys`, so only the missing rows are inserted (SQLite has no insert-skip-duplicates in Prisma). */
async function existingSeqs(tx: DbTransaction, table: "events" | "messages", runId: string, keys: number[]): Promise<Set<number>> {
  if (keys.length === 0) return new Set();
  const range = { gte: Math.min(...keys), lte: Math.max(...keys) };
  if (table === "events") {
    const rows = await tx.runEvent.findMany({ where: { runId, seq: range }, select: { seq: true } });
    return new Set(rows.map((r) => r.seq));
  }
  const rows = await tx.runMessage.findMany({ where: { runId, index: range }, select: { index: true } });
  return new Set(rows.map((r) => r.index));
}

// Read committed (PostgreSQL): nothing here rests on what it read, and concurrent deciders then
// queue on the audit chain's head row instead of failing on it; a retried record is a no-op.
const AUDIT_TRANSACTION = { isolation: "read-committed", retryOnUniqueViolation: true } as const;

function auditDetails(record: ApprovalOutcomeRecord): Record<string, unknown> {
  const { approval, decidedBy } = record;
  return {
    tool: approval.toolName,
    agent: approval.agentName,
    rootRunId: approval.rootRunId,
    decidedBy: decidedBy?.email ?? null,
    role: decidedBy?.role ?? null,
    reason: record.reason,
    arguments: approval.arguments,
    editedArguments: record.editedArguments,
    requestedAt: approval.requestedAt,
    endorsements: approval.endorsements.map((e) => e.by.email),
    requiredApprovals: approval.requiredApprovals,
    // An expiry is the rule's default action, not a person's decision: the row says which one applied.
    ...(record.status === "expired" ? { defaultAction: approval.onExpiry === "approve" ? "approved" : "rejected", expiresAt: approval.expiresAt } : {}),
    // A decision made with an API key names it, as every other row written with a key does (lib/audit/write.ts):
    // this row is written by the worker, outside the request that carried the key.
    ...(decidedBy?.apiKeyId ? { apiKeyId: decidedBy.apiKeyId } : {}),
  };
}

/** One approval of a call that needs several: an audit event per approver; the call stays pending. */
async function recordEndorsement(db: Db, record: ApprovalOutcomeRecord): Promise<void> {
  const { approval, decidedBy } = record;
  if (!decidedBy) throw new Error("an endorsement needs an approver");
  await writeTransaction(db, async (tx) => {
    await tx.approvalRecord.upsert({ where: { id: approval.id }, create: { ...approvalRow(approval), status: "pending" }, update: {} });
    const actor = await tx.user.findUnique({ where: { id: decidedBy.id }, select: { id: true } });
    const id = `approval:${approval.id}:${decidedBy.id}`;
    await appendAuditInTransaction(tx, { id, actorId: actor?.id ?? null, action: "approval.endorsed", target: `${approval.runId}/${approval.id}`, at: new Date(record.decidedAt), details: auditDetails(record) });
  }, AUDIT_TRANSACTION);
}

function approvalRow(approval: ApprovalRequest) {
  return {
    id: approval.id,
    runId: approval.runId,
    rootRunId: approval.rootRunId,
    parentRunId: approval.parentRunId,
    agentName: approval.agentName,
    toolName: approval.toolName,
    toolCallId: approval.toolCallId,
    arguments: JSON.stringify(approval.arguments),
    requiredRole: approval.requiredRole,
    requestedAt: new Date(approval.requestedAt),
    expiresAt: new Date(approval.expiresAt),
  };
}

function runFields(summary: LedgerBatch["summary"]) {
  return {
    status: summary.status,
    iteration: summary.iteration,
    inputTokens: summary.usage.inputTokens,
    outputTokens: summary.usage.outputTokens,
    // An ended run waits for nobody: its pending approvals are withdrawn (withdrawApprovalsOfEndedRuns).
    pendingApprovals: summary.endedAt ? 0 : summary.pendingApprovals,
    lastEventSeq: summary.lastEventSeq,
    messageCount: summary.messageCount,
    generation: summary.generation,
    output: summary.output,
    // Absent from batches of runs that predate typed answers: leave the column alone.
    ...(summary.outputData !== undefined ? { outputData: summary.outputData } : {}),
    ...(summary.routedTo !== undefined ? { routedTo: summary.routedTo } : {}),
    // A `mask` input guardrail redacted the task: the row shows what the run worked on, never the original.
    ...(summary.task !== undefined ? { task: summary.task } : {}),
    errorReason: summary.error?.reason ?? null,
    errorMessage: summary.error?.message ?? null,
    endedAt: summary.endedAt ? new Date(summary.endedAt) : null,
  };
}

/**
 * The outcome of the batch's last plan_finished event, so a follow-up turn's plan
 * replaces an earlier turn's; undefined (no plan finished in this batch) leaves the column alone.
 */
function planOutcomeOf(events: LedgerBatch["events"]): PlanOutcome | undefined {
  const last = events.findLast((event) => event.type === "plan_finished");
  return last?.type === "plan_finished" ? last.outcome : undefined;
}

async function upsertRun(tx: DbTransaction, batch: FencedLedgerBatch): Promise<void> {
  const { run, summary, events } = batch;
  const fence = fenceOf(batch);
  const fields = { ...runFields(summary), planOutcome: planOutcomeOf(events), ...(fence ? { generation: fence.attempt - 1 } : {}) };
  await tx.run.upsert({
    where: { id: run.runId },
    create: {
      id: run.runId,
      rootRunId: run.rootRunId,
      parentRunId: run.parentRunId,
      agentName: run.agentName,
      graphName: run.graphName,
      agentVersionId: run.agentVersionId,
      startedBy: run.startedBy,
      task: run.task,
      context: JSON.stringify(run.context),
      startedAt: new Date(summary.startedAt),
      ...fields,
    },
    update: fields,
  });
}

function eventRows(runId: string, events: LedgerBatch["events"]) {
  return events.map((event) => {
    const data = JSON.stringify(event);
    return { runId, seq: event.seq, type: event.type, at: new Date(event.at), data, bytes: Buffer.byteLength(data) };
  });
}

function messageRows(runId: string, messages: LedgerBatch["messages"]) {
  return messages.map((m) => ({ runId, index: m.index, role: m.message.role, data: JSON.stringify(m.message) }));
}

function spanRows(runId: string, spans: LedgerBatch["spans"]) {
  return spans.map((span) => ({
    runId,
    spanId: span.id,
    parentId: span.parentId,
    kind: span.kind,
    name: span.name,
    status: span.status,
    startedAt: new Date(span.startedAt),
    endedAt: span.endedAt ? new Date(span.endedAt) : null,
    data: spanData(span),
  }));
}

/** Spans are rewritten whole (a span is sent again when it ends): delete those present, then insert. */
async function rewriteSpans(tx: DbTransaction, batches: LedgerBatch[]): Promise<void> {
  const withSpans = batches.filter((b) => b.spans.length > 0);
  if (withSpans.length === 0) return;
  await tx.runSpan.deleteMany({ where: { OR: withSpans.map((b) => ({ runId: b.run.runId, spanId: { in: b.spans.map((s) => s.id) } })) } });
  await tx.runSpan.createMany({ data: withSpans.flatMap((b) => spanRows(b.run.runId, b.spans)) });
}

/** Requests only: outcomes are written by recordApprovalOutcome, which must never be overwritten by a stale "pending". */
async function insertApprovalRequests(tx: DbTransaction, batch: LedgerBatch): Promise<void> {
  for (const approval of batch.approvals) {
    await tx.approvalRecord.upsert({ where: { id: approval.id }, create: { ...approvalRow(approval), status: "pending" }, update: {} });
  }
}

/**
 * The fast path for a group: the run rows one by one (in order), then every
 * run's events, messages and spans in one statement each, so a group of N runs
 * costs N + 4 statements instead of about 6 N. It fails on a row that already
 * exists (a batch replayed after a crash), which sends the caller to the checked path.
 */
async function writeGroupInTx(tx: DbTransaction, batches: FencedLedgerBatch[]): Promise<void> {
  for (const batch of batches) {
    await applyFence(tx, batch);
    await upsertRun(tx, batch);
  }
  const events = batches.flatMap((b) => eventRows(b.run.runId, b.events));
  if (events.length) await tx.runEvent.createMany({ data: events });
  const messages = batches.flatMap((b) => messageRows(b.run.runId, b.messages));
  if (messages.length) await tx.runMessage.createMany({ data: messages });
  await rewriteSpans(tx, batches);
  for (const batch of batches) await insertApprovalRequests(tx, batch);
  // The fast path inserted every row of every batch (else it threw and the checked path runs).
  await queueDerivedRows(tx, batches.map(({ run, summary, events, messages, spans, fence }) => ({ run, summary, events, messages, spans, fence })));
}

/**
 * A batch of one execution meeting the ledger of another under the same run id
 * (two plans that gave their nodes the same child ids did, before issue 22).
 * Not written, and never merged: the checked path would otherwise keep the
 * first execution's events and drop the second's as "already written".
 */
export class LedgerConflictError extends Error {
  constructor(
    readonly runId: string,
    detail: string,
  ) {
    super(`run ${runId} already has a ledger of another execution (${detail}); its batch was not written`);
    this.name = "LedgerConflictError";
  }
}

/**
 * Refuses a batch whose run row was written by another execution. A child run's
 * row is created by its own first batch with the execution's start time (workflow
 * time, the same on every replay and retry), so a different start time is another
 * execution. A root run's row is created by the engine client with the web
 * server's clock, so its start time says nothing; roots have unique ids.
 */
async function checkSameExecution(tx: DbTransaction, { run, summary }: LedgerBatch): Promise<void> {
  if (run.parentRunId === null) return;
  const existing = await tx.run.findUnique({ where: { id: run.runId }, select: { startedAt: true, parentRunId: true } });
  if (!existing) return;
  if (existing.parentRunId !== run.parentRunId) throw new LedgerConflictError(run.runId, `its parent is ${existing.parentRunId ?? "none"}, this batch's ${run.parentRunId}`);
  if (existing.startedAt.getTime() !== Date.parse(summary.startedAt)) {
    throw new LedgerConflictError(run.runId, `started ${existing.startedAt.toISOString()}, this batch's execution ${summary.startedAt}`);
  }
}

/** The checked path for one batch: inserts only the events and messages that are not there yet, and returns what it inserted. */
async function writeBatchCheckedInTx(tx: DbTransaction, batch: FencedLedgerBatch): Promise<InsertedLedgerRows> {
  const { run } = batch;
  await checkSameExecution(tx, batch);
  await applyFence(tx, batch);
  await upsertRun(tx, batch);
  const seenEvents = await existingSeqs(tx, "events", run.runId, batch.events.map((e) => e.seq));
  const events = batch.events.filter((e) => !seenEvents.has(e.seq));
  if (events.length) await tx.runEvent.createMany({ data: eventRows(run.runId, events) });
  const seenMessages = await existingSeqs(tx, "messages", run.runId, batch.messages.map((m) => m.index));
  const messages = batch.messages.filter((m) => !seenMessages.has(m.index));
  if (messages.length) await tx.runMessage.createMany({ data: messageRows(run.runId, messages) });
  await rewriteSpans(tx, [batch]);
  await insertApprovalRequests(tx, batch);
  return { run, summary: batch.summary, events, messages, spans: batch.spans, fence: batch.fence };
}

/** Writes one batch of a run's ledger in one transaction (a fenced batch of an older attempt: LedgerFencedError). */
export async function writeLedgerBatch(db: Db, batch: FencedLedgerBatch): Promise<void> {
  await writeLedgerGroup(db, [batch]);
}

/**
 * Writes batches of several runs in one transaction (group commit: one write
 * lock and one sync to disk for many runs, which is what lets SQLite keep up
 * with hundreds of concurrent runs). When the fast path meets a row that is
 * already there (a batch replayed after a crash), the group is written again
 * with existence checks.
 */
export async function writeLedgerGroup(db: Db, batches: FencedLedgerBatch[]): Promise<void> {
  // One queue row for the whole group (derived.ts): the checked path gathers what each batch inserted.
  const checked = () =>
    writeTransaction(db, async (tx) => {
      const inserted: InsertedLedgerRows[] = [];
      for (const batch of batches) inserted.push(await writeBatchCheckedInTx(tx, batch));
      await queueDerivedRows(tx, inserted);
    });
  if (mixesAttempts(batches)) await checked();
  else {
    try {
      await writeTransaction(db, (tx) => writeGroupInTx(tx, batches));
    } catch (error) {
      if (retryReason(error) !== "unique_violation") throw error;
      await checked();
    }
  }
  await withdrawApprovalsOfEndedRuns(db, batches);
}

/**
 * A run that ends while a call waits for a decision (cancelled, failed, out of time) leaves nobody to apply one:
 * its approvals still pending are closed as `withdrawn`, each with an audit event, so that no count, monitor or
 * list shows them waiting forever (they did: "cancelled · 1 waiting"). After the batch that ended the run, in
 * the same activity, so a crash between the two retries both; idempotent (only rows still pending change, and
 * the audit row's id is derived from the approval's).
 */
async function withdrawApprovalsOfEndedRuns(db: Db, batches: readonly LedgerBatch[]): Promise<void> {
  const ended = new Map(batches.filter((b) => b.summary.endedAt).map((b) => [b.run.runId, b.summary] as const));
  if (!ended.size) return;
  const pending = await db.approvalRecord.findMany({ where: { runId: { in: [...ended.keys()] }, status: "pending" } });
  for (const row of pending) {
    const summary = ended.get(row.runId);
    if (!summary?.endedAt) continue;
    const at = new Date(summary.endedAt);
    const reason = `the run ended (${summary.status}) before a decision`;
    await writeTransaction(db, async (tx) => {
      const { count } = await tx.approvalRecord.updateMany({ where: { id: row.id, status: "pending" }, data: { status: "withdrawn", reason, decidedAt: at } });
      if (count === 0) return;
      await appendAuditInTransaction(tx, {
        id: `approval:${row.id}:withdrawn`,
        actorId: null,
        action: "approval.withdrawn",
        target: `${row.runId}/${row.id}`,
        at,
        details: { tool: row.toolName, agent: row.agentName, rootRunId: row.rootRunId, decidedBy: null, role: null, reason, arguments: JSON.parse(row.arguments) as unknown, requestedAt: row.requestedAt.toISOString() },
      });
    }, AUDIT_TRANSACTION);
  }
}

/**
 * Queues ledger batches from concurrent activities and writes whatever is
 * queued in one transaction. On SQLite every write holds the process's event
 * loop (the driver is synchronous) and the database's single write lock, so
 * fewer, larger transactions are what keep a busy worker responsive.
 */
export function createLedgerWriter(db: Db, options: { maxGroup?: number; onWritten?: () => void } = {}) {
  const { maxGroup = 100, onWritten } = options;
  const queue: { batch: FencedLedgerBatch; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let draining = false;

  async function drain(): Promise<void> {
    try {
      while (queue.length) {
        const group = queue.splice(0, maxGroup);
        try {
          await writeLedgerGroup(db, group.map((g) => g.batch));
          for (const item of group) item.resolve();
        } catch {
          // One bad batch (or a fenced one refused) must not fail the others: write them one by one, each with its own outcome.
          for (const item of group) await writeLedgerBatch(db, item.batch).then(item.resolve, item.reject);
        }
        // What the group queued for the derived rows (search, facets, rollups) is derived off this path.
        onWritten?.();
      }
    } finally {
      draining = false;
    }
  }

  return {
    /** Queues `batch`; a fenced batch of an older attempt than the run's rejects with LedgerFencedError. */
    write(batch: FencedLedgerBatch): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ batch, resolve, reject });
        if (draining) return;
        draining = true;
        // Start on the next turn of the event loop, so batches of other runs whose
        // activities are already queued join this group (no delay when idle).
        setImmediate(() => void drain());
      });
    },
  };
}

/**
 * Records an approval's outcome and its audit event together. The workflow
 * applies a decision only after this returns, so a decision stands if and only
 * if it is recorded; the audit event's id is derived from the approval id, so
 * a retry writes it once.
 */
export async function recordApprovalOutcome(db: Db, record: ApprovalOutcomeRecord): Promise<void> {
  const { approval, decidedBy } = record;
  if (record.status === "endorsed") {
    await recordEndorsement(db, record);
    return;
  }
  const outcome = {
    status: record.status,
    reason: record.reason,
    editedArguments: record.editedArguments ? JSON.stringify(record.editedArguments) : null,
    decidedById: decidedBy?.id ?? null,
    decidedByEmail: decidedBy?.email ?? null,
    decidedAt: new Date(record.decidedAt),
  };
  await writeTransaction(db, async (tx) => {
    await tx.approvalRecord.upsert({ where: { id: approval.id }, create: { ...approvalRow(approval), ...outcome }, update: outcome });
    // The decider may be an identity outside the users table (tests, automation): keep the email in the details either way.
    const actor = decidedBy ? await tx.user.findUnique({ where: { id: decidedBy.id }, select: { id: true } }) : null;
    await appendAuditInTransaction(tx, {
      id: `approval:${approval.id}`,
      actorId: actor?.id ?? null,
      action: `approval.${record.status}`,
      target: `${approval.runId}/${approval.id}`,
      at: new Date(record.decidedAt),
      details: auditDetails(record),
    });
  }, AUDIT_TRANSACTION);
}

/** The row of a run about to start, so every list shows it (with its version and starter) from the start. */
export async function createRunRow(
  db: Db,
  run: { id: string; agentName: string; graphName: string | null; agentVersionId: string | null; startedBy: string | null; task: string; context: Record<string, unknown> },
  /** A fork's origin (the run and span it was forked at, its edit), an unsaved variant's saved version, the experiment (lib/tapes), schedule (lib/schedules) or webhook endpoint (lib/webhooks) that started the run, and the version label it was started by with its split's side (lib/labels). */
  origin?: { forkOfRunId?: string; forkSpanId?: string; forkEdit?: string; variantOfVersionId?: string; experimentId?: string; scheduleId?: string; webhookId?: string; label?: string; labelVariant?: string },
): Promise<void> {
  await db.run.create({ data: { ...run, rootRunId: run.id, context: JSON.stringify(run.context), ...(origin ?? {}) } });
}

/** Removes the row of a run Temporal refused to start, so nothing is half-created. */
export async function deleteRunRow(db: Db, runId: string): Promise<void> {
  await db.run.delete({ where: { id: runId } });
}
