// Reads from the run ledger: events, spans, messages and run rows. These work
// for any run size, live or finished, and after Temporal has forgotten the run.
import { msSql, pricePeriodSql } from "./price-periods";
import type { Db } from "../db/prisma";
import { dbProvider } from "../db/transactions";
import { EVENT_PAGE_DEFAULTS, type ChatMessage, type FailureDetails, type FailureReason, type RunEvent, type RunStatus, type RunSummary, type TraceNode, type TraceSpan } from "../contract/types";
import type { PlanOutcome } from "../contract/plan";
import { runTriggerWhere, type RunTrigger } from "./triggers";

export interface EventPage {
  events: RunEvent[];
  /** Ask for events after this sequence number next. */
  nextSince: number;
  /** More events are already written after this page. */
  hasMore: boolean;
}

/**
 * Events after `since`, at most `limit` of them and about `maxBytes` of JSON
 * (always at least one event, however large, so paging makes progress).
 */
export async function readEventPage(db: Db, runId: string, since: number, options: { limit?: number; maxBytes?: number } = {}): Promise<EventPage> {
  const limit = options.limit ?? EVENT_PAGE_DEFAULTS.limit;
  const maxBytes = options.maxBytes ?? EVENT_PAGE_DEFAULTS.maxBytes;
  // Sizes first (cheap), then only the rows that fit.
  const sizes = await db.runEvent.findMany({ where: { runId, seq: { gt: since } }, orderBy: { seq: "asc" }, take: limit + 1, select: { seq: true, bytes: true } });
  let bytes = 0;
  let last = since;
  let count = 0;
  for (const row of sizes.slice(0, limit)) {
    if (count > 0 && bytes + row.bytes > maxBytes) break;
    bytes += row.bytes;
    last = row.seq;
    count++;
  }
  if (count === 0) return { events: [], nextSince: since, hasMore: false };
  const rows = await db.runEvent.findMany({ where: { runId, seq: { gt: since, lte: last } }, orderBy: { seq: "asc" }, select: { data: true } });
  return { events: rows.map((r) => JSON.parse(r.data) as RunEvent), nextSince: last, hasMore: sizes.length > count };
}

/** A run_spans row as Prisma reads it. */
interface SpanRecord {
  spanId: string;
  parentId: string | null;
  kind: string;
  name: string;
  status: string;
  startedAt: Date;
  endedAt: Date | null;
  /** JSON text: tokens, attempts, attributes. */
  data: string;
}

function spanFromRecord(row: SpanRecord): TraceSpan {
  const extra = JSON.parse(row.data) as Pick<TraceSpan, "tokens" | "attempts" | "attributes">;
  return {
    id: row.spanId,
    parentId: row.parentId,
    kind: row.kind as TraceSpan["kind"],
    name: row.name,
    status: row.status as TraceSpan["status"],
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    ...(extra.tokens ? { tokens: extra.tokens } : {}),
    ...(extra.attempts !== undefined ? { attempts: extra.attempts } : {}),
    ...(extra.attributes ? { attributes: extra.attributes } : {}),
  };
}

/** The run's spans, flat, in start order. */
export async function readSpans(db: Db, runId: string): Promise<TraceSpan[]> {
  const rows = await db.runSpan.findMany({ where: { runId }, orderBy: [{ startedAt: "asc" }, { spanId: "asc" }] });
  return rows.map(spanFromRecord);
}

/**
 * A page of a run's spans in start order as compact JSON rows,
 * `[id, parentId, kind, name, status, startMs, endMs, {tokens, attempts, attributes}]`
 * (lib/runs/span-rows.ts), built by the database itself. The trace view reads
 * runs of 200,000 spans this way: a row costs no object in Node and no key
 * names on the wire, and the `data` column's JSON is passed through unparsed.
 * Rows come in (started_at, span_id) order, the index the query walks.
 */
export async function readSpanRowsJson(db: Db, runId: string, offset: number, limit: number): Promise<{ json: string; count: number; total: number }> {
  const sql =
    dbProvider(db) === "postgresql"
      ? `SELECT count(*)::int AS count, (SELECT count(*)::int FROM run_spans WHERE run_id = $1) AS total,
           coalesce(json_agg(json_build_array(span_id, parent_id, kind, name, status, ${pgMs("started_at")}, ${pgMs("ended_at")}, data::json) ORDER BY started_at, span_id), '[]')::text AS json
         FROM (SELECT * FROM run_spans WHERE run_id = $1 ORDER BY started_at, span_id LIMIT $2 OFFSET $3) page`
      : // SQLite aggregates the subquery's rows in its order (an ORDER BY inside json_group_array would turn the rows into strings).
        `SELECT count(*) AS count, (SELECT count(*) FROM run_spans WHERE run_id = ?1) AS total,
           json_group_array(json_array(span_id, parent_id, kind, name, status, ${sqliteMs("started_at")}, ${sqliteMs("ended_at")}, json(data))) AS json
         FROM (SELECT * FROM run_spans WHERE run_id = ?1 ORDER BY started_at, span_id LIMIT ?2 OFFSET ?3)`;
  const [row] = await db.$queryRawUnsafe<{ count: number | bigint; total: number | bigint; json: string }[]>(sql, runId, limit, offset);
  return { json: row?.json ?? "[]", count: Number(row?.count ?? 0), total: Number(row?.total ?? 0) };
}

/** Tokens of a run's model calls, summed per model. */
export interface ModelTokens {
  runId: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** The price period the calls ran in (lib/run-ledger/price-periods.ts; always 0 without price changes). */
  period: number;
}

/**
 * The tokens of the given runs' model calls (inference spans, named after
 * their model), summed per run and model by the database: a run header or a
 * list row costs one aggregate, not a read of every model call's JSON. With
 * `priceChanges` (lib/pricing/price-book.ts priceChangeTimes) the sums are per
 * price period too, so each is priced at the price its calls ran at.
 */
export async function readModelTokens(db: Db, runIds: readonly string[], priceChanges: readonly number[] = []): Promise<ModelTokens[]> {
  if (runIds.length === 0) return [];
  const postgres = dbProvider(db) === "postgresql";
  const period = pricePeriodSql(msSql(postgres, "started_at"), priceChanges);
  const ids = runIds.map((_, i) => (postgres ? `$${i + 1}` : `?${i + 1}`)).join(", ");
  const token = (field: string) => (postgres ? `coalesce(sum((data::jsonb #>> '{tokens,${field}}')::bigint), 0)::float8` : `coalesce(sum(json_extract(data, '$.tokens.${field}')), 0)`);
  const hasTokens = postgres ? `data::jsonb ? 'tokens'` : `json_type(data, '$.tokens') IS NOT NULL`;
  const rows = await db.$queryRawUnsafe<{ runId: string; model: string; inputTokens: number | bigint; outputTokens: number | bigint; period: number | bigint }[]>(
    `SELECT run_id AS "runId", name AS model, ${token("inputTokens")} AS "inputTokens", ${token("outputTokens")} AS "outputTokens", ${period} AS period
     FROM run_spans WHERE run_id IN (${ids}) AND kind = 'inference' AND ${hasTokens} GROUP BY run_id, name${priceChanges.length ? `, ${period}` : ""}`,
    ...runIds,
  );
  return rows.map((r) => ({ runId: r.runId, model: r.model, inputTokens: Number(r.inputTokens), outputTokens: Number(r.outputTokens), period: Number(r.period) }));
}

// Times as ms since the epoch: half the work of formatting them as text in SQLite (measured), smaller on
// the wire, and what the browser computes with. Prisma stores UTC (ISO text on SQLite, timestamp(3) on PostgreSQL).
const sqliteMs = (column: string) => `CAST(round(unixepoch(${column}, 'subsec') * 1000) AS INTEGER)`;
const pgMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::bigint`;

/** Builds the span tree (run → iteration → inference / tool / sub-agent / approval wait). */
export function spanTree(spans: TraceSpan[]): TraceNode[] {
  const nodes = new Map<string, TraceNode>(spans.map((s) => [s.id, { ...s, children: [] }]));
  const roots: TraceNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** The conversation (OpenAI chat format), optionally only its first `count` messages. */
export async function readMessages(db: Db, runId: string, count?: number): Promise<ChatMessage[]> {
  const rows = await db.runMessage.findMany({ where: { runId, ...(count !== undefined ? { index: { lt: count } } : {}) }, orderBy: { index: "asc" }, select: { data: true } });
  return rows.map((r) => JSON.parse(r.data) as ChatMessage);
}

/** The typed answer stored as JSON text (the worker wrote it, so it parses; a damaged row reads as its text). */
export function parseOutputData(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * What a failed run's failure carries beyond its message (validation errors
 * and the last answer, or the agents a router tried): the run_failed event's
 * `details`, which the runs table does not hold. Undefined for other runs.
 */
export async function readFailureDetails(db: Db, runId: string): Promise<FailureDetails | undefined> {
  const [failed] = await readEventsOfTypes(db, runId, ["run_failed"], { take: 1 });
  return failed?.type === "run_failed" ? failed.details : undefined;
}

/** A run's summary with what only the ledger knows: how the run's last finished plan ended (null when none did). */
export type RunSummaryWithPlan = RunSummary & { planOutcome: PlanOutcome | null };

/** The plan_outcome column, which the ledger writer fills only from plan_finished events' outcomes. */
export function planOutcomeOf(row: { planOutcome: string | null }): PlanOutcome | null {
  return row.planOutcome as PlanOutcome | null;
}

/** How the run's last finished plan ended, or null (no plan finished, or no such run). */
/** The seq of the last event the run's row counts as written (null: no such run). */
export async function readLastEventSeq(db: Db, runId: string): Promise<number | null> {
  const row = await db.run.findUnique({ where: { id: runId }, select: { lastEventSeq: true } });
  return row ? row.lastEventSeq : null;
}

/** The last event sequence number of each of `runIds` that exists (the run streams' shared poller asks for all it watches at once). */
export function readLastEventSeqs(db: Db, runIds: readonly string[]): Promise<{ id: string; lastEventSeq: number }[]> {
  return db.run.findMany({ where: { id: { in: [...runIds] } }, select: { id: true, lastEventSeq: true } });
}

export async function readPlanOutcome(db: Db, runId: string): Promise<PlanOutcome | null> {
  const row = await db.run.findUnique({ where: { id: runId }, select: { planOutcome: true } });
  return row ? planOutcomeOf(row) : null;
}

/** The run's last plan_finished event (the one its plan_outcome column was taken from), or null. */
export async function readLastPlanFinished(db: Db, runId: string): Promise<Extract<RunEvent, { type: "plan_finished" }> | null> {
  const row = await db.runEvent.findFirst({ where: { runId, type: "plan_finished" }, orderBy: { seq: "desc" }, select: { data: true } });
  const event = row ? (JSON.parse(row.data) as RunEvent) : null;
  return event?.type === "plan_finished" ? event : null;
}

/** A run's summary as last written by its ledger, or null when the run is unknown. */
export async function readRunSummary(db: Db, runId: string): Promise<RunSummaryWithPlan | null> {
  const row = await db.run.findUnique({ where: { id: runId } });
  if (!row) return null;
  const details = row.status === "failed" && row.errorReason ? await readFailureDetails(db, runId) : undefined;
  return {
    runId: row.id,
    rootRunId: row.rootRunId,
    parentRunId: row.parentRunId,
    agentName: row.agentName,
    status: row.status as RunStatus,
    iteration: row.iteration,
    usage: { inputTokens: row.inputTokens, outputTokens: row.outputTokens },
    output: row.output,
    ...(row.outputData !== null ? { outputData: parseOutputData(row.outputData) } : {}),
    routedTo: row.routedTo,
    planOutcome: planOutcomeOf(row),
    error: row.errorReason ? { reason: row.errorReason as FailureReason, message: row.errorMessage ?? "", ...(details ? { details } : {}) } : null,
    pendingApprovals: row.pendingApprovals,
    lastEventSeq: row.lastEventSeq,
    generation: row.generation,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

/** A run's ledger row as Prisma reads it. */
export type RunRow = NonNullable<Awaited<ReturnType<Db["run"]["findUnique"]>>>;

/** Whether the runs table has this run: every door checks it before it names a run to Temporal. */
/** The run a schedule's firing started, found by the end of its id (the firing's part): a retried firing starts no second run. */
export async function readScheduledRunId(db: Db, scheduleId: string, idSuffix: string): Promise<string | null> {
  const row = await db.run.findFirst({ where: { scheduleId, id: { endsWith: idSuffix } }, select: { id: true } });
  return row?.id ?? null;
}

export async function runExists(db: Db, runId: string): Promise<boolean> {
  return (await db.run.findUnique({ where: { id: runId }, select: { id: true } })) !== null;
}

/** A run's row, or null when the run is unknown. */
export function readRunRow(db: Db, runId: string): Promise<RunRow | null> {
  return db.run.findUnique({ where: { id: runId } });
}

/** Which rows of the runs table a list shows; every field narrows it. */
export interface RunRowFilter {
  /** Only runs without a parent (the runs list groups sub-runs under them). */
  topLevel?: boolean;
  runIds?: string[];
  /** Never these runs (the runs list's feedback=none leaves out the trees that have feedback). */
  excludeRunIds?: string[];
  status?: string;
  /** Runs still working: any status but completed, failed and cancelled. */
  working?: boolean;
  /** Runs that ended with this typed failure. */
  errorReason?: string;
  /** Runs a router gave to this agent. */
  routedTo?: string;
  /** Runs whose last finished plan ended so. */
  planOutcome?: PlanOutcome;
  /** The saved agent graph the run was started from. */
  graph?: string;
  /** The agent the run starts with. */
  entryAgent?: string;
  agentVersionIds?: string[];
  /** Part of the starter's email. */
  startedBy?: string;
  /** Only runs of these trees (root run ids). */
  rootRunIds?: string[];
  /** Runs waiting for a decision: pending approvals and not ended. */
  awaitingApproval?: boolean;
  startedFrom?: Date;
  startedTo?: Date;
  /** Leave out the runs experiments started (the runs list hides them unless asked). */
  hideExperimentRuns?: boolean;
  /** Only the runs this schedule started. */
  scheduleId?: string;
  /** Only the runs this inbound webhook endpoint started. */
  webhookId?: string;
  /** Only the runs started by this version label (lib/labels). */
  label?: string;
  /** Only the runs this trigger started, as lib/runs/triggers.ts names a run's trigger (the overview's split counts by it). */
  trigger?: RunTrigger;
}

const ENDED = ["completed", "failed", "cancelled"];

/** The Prisma filter of a RunRowFilter (the list readers here and in ./list-reads.ts share it). */
export function runWhere(filter: RunRowFilter) {
  return {
    ...(filter.topLevel ? { parentRunId: null } : {}),
    ...(filter.hideExperimentRuns ? { experimentId: null } : {}),
    ...(filter.scheduleId ? { scheduleId: filter.scheduleId } : {}),
    ...(filter.webhookId ? { webhookId: filter.webhookId } : {}),
    ...(filter.label ? { label: filter.label } : {}),
    // Under AND: the trigger's conditions on the links sit beside the schedule, webhook and experiment filters above, never replacing them.
    ...(filter.trigger ? { AND: [runTriggerWhere(filter.trigger)] } : {}),
    ...(filter.runIds ? { id: { in: filter.runIds } } : {}),
    ...(filter.excludeRunIds?.length ? { NOT: { id: { in: filter.excludeRunIds } } } : {}),
    ...(filter.status ? { status: filter.status } : filter.working ? { status: { notIn: ENDED } } : {}),
    ...(filter.errorReason ? { errorReason: filter.errorReason } : {}),
    ...(filter.routedTo ? { routedTo: filter.routedTo } : {}),
    ...(filter.planOutcome ? { planOutcome: filter.planOutcome } : {}),
    ...(filter.graph ? { graphName: filter.graph } : {}),
    ...(filter.entryAgent ? { agentName: filter.entryAgent } : {}),
    ...(filter.agentVersionIds ? { agentVersionId: { in: filter.agentVersionIds } } : {}),
    ...(filter.startedBy ? { startedBy: { contains: filter.startedBy } } : {}),
    ...(filter.rootRunIds ? { rootRunId: { in: filter.rootRunIds } } : {}),
    ...(filter.awaitingApproval ? { pendingApprovals: { gt: 0 }, status: filter.status ?? { notIn: ENDED } } : {}),
    ...(filter.startedFrom || filter.startedTo ? { startedAt: { ...(filter.startedFrom ? { gte: filter.startedFrom } : {}), ...(filter.startedTo ? { lte: filter.startedTo } : {}) } } : {}),
  };
}

/** Up to this many ids, a list filtered by ids is sorted in memory rather than by the database. */
const IDS_SORTED_IN_MEMORY = 1_000;

/** Runs matching `filter`, newest first (or oldest first), one page of them, and how many match in all. */
export async function readRunRows(db: Db, filter: RunRowFilter, page: { skip?: number; take: number; oldestFirst?: boolean }): Promise<{ rows: RunRow[]; total: number }> {
  const where = runWhere(filter);
  const sign = page.oldestFirst ? -1 : 1;
  if (filter.runIds && filter.runIds.length <= IDS_SORTED_IN_MEMORY) {
    // A short list of ids (search results) is read whole and sorted here: with ORDER BY started_at and a
    // LIMIT, SQLite walks the started_at index until enough of the ids turn up, slow when they are spread
    // over the whole history (bench/search.ts).
    const all = await db.run.findMany({ where });
    all.sort((a, b) => sign * (b.startedAt.getTime() - a.startedAt.getTime()) || (a.id < b.id ? -1 : 1));
    const skip = page.skip ?? 0;
    return { rows: all.slice(skip, skip + page.take), total: all.length };
  }
  const [total, rows] = await Promise.all([
    db.run.count({ where }),
    db.run.findMany({ where, orderBy: { startedAt: page.oldestFirst ? "asc" : "desc" }, skip: page.skip ?? 0, take: page.take }),
  ]);
  return { rows, total };
}

/** The root run ids of the trees where some run waits for a decision. */
export async function readAwaitingRoots(db: Db): Promise<string[]> {
  const waiting = await db.run.findMany({ where: runWhere({ awaitingApproval: true }), select: { rootRunId: true }, distinct: ["rootRunId"] });
  return waiting.map((w) => w.rootRunId);
}

/** The sub-runs of the given trees (every run below their roots), oldest first. */
export function readSubRuns(db: Db, rootRunIds: string[]): Promise<RunRow[]> {
  if (rootRunIds.length === 0) return Promise.resolve([]);
  return db.run.findMany({ where: { rootRunId: { in: rootRunIds }, parentRunId: { not: null } }, orderBy: { startedAt: "asc" } });
}

/** Every run of one tree, as id, parent and status. */
export function readRunTree(db: Db, rootRunId: string): Promise<{ id: string; parentRunId: string | null; status: string }[]> {
  return db.run.findMany({ where: { rootRunId }, select: { id: true, parentRunId: true, status: true } });
}

/** The conversation from message `from` on, at most `take` messages, each with its index. */
export async function readMessagesFrom(db: Db, runId: string, from: number, take: number): Promise<{ index: number; message: ChatMessage }[]> {
  const rows = await db.runMessage.findMany({ where: { runId, index: { gte: from } }, orderBy: { index: "asc" }, take, select: { index: true, data: true } });
  return rows.map((r) => ({ index: r.index, message: JSON.parse(r.data) as ChatMessage }));
}

/** Events of the given types in order, at most `take`; with `mentioning`, only those whose JSON contains it. */
export async function readEventsOfTypes(db: Db, runId: string, types: readonly RunEvent["type"][], options: { take: number; mentioning?: string }): Promise<RunEvent[]> {
  const rows = await db.runEvent.findMany({
    where: { runId, type: { in: [...types] }, ...(options.mentioning ? { data: { contains: options.mentioning } } : {}) },
    orderBy: { seq: "asc" },
    take: options.take,
    select: { data: true },
  });
  return rows.map((r) => JSON.parse(r.data) as RunEvent);
}

/** Spans that are open, or started or ended at `since` or later, in start order. */
export async function readSpansChangedSince(db: Db, runId: string, since: Date): Promise<TraceSpan[]> {
  const rows = await db.runSpan.findMany({ where: { runId, OR: [{ endedAt: null }, { startedAt: { gte: since } }, { endedAt: { gte: since } }] }, orderBy: { startedAt: "asc" } });
  return rows.map(spanFromRecord);
}

/** How many of a run's spans of this kind started before `startedAt` (a span's place among its kind). */
export function countSpansStartedBefore(db: Db, runId: string, kind: TraceSpan["kind"], startedAt: Date): Promise<number> {
  return db.runSpan.count({ where: { runId, kind, startedAt: { lt: startedAt } } });
}

/** The newest open timer span of a run (a root run's follow-up window after its answer), or null. */
export async function readOpenTimerSpan(db: Db, runId: string): Promise<TraceSpan | null> {
  const row = await db.runSpan.findFirst({ where: { runId, kind: "timer", endedAt: null }, orderBy: { startedAt: "desc" } });
  return row ? spanFromRecord(row) : null;
}

/** One span of a run, or null. */
export async function readSpan(db: Db, runId: string, spanId: string): Promise<TraceSpan | null> {
  const row = await db.runSpan.findUnique({ where: { runId_spanId: { runId, spanId } } });
  return row ? spanFromRecord(row) : null;
}

/**
 * What a successful model call saw and said: the k-th successful inference (by
 * start time) produced the k-th assistant message, and its input is every
 * message before that one (the last `cap` of them). Null when the message is
 * not written yet.
 */
export async function readInferenceExchange(db: Db, runId: string, startedAt: Date, cap: number): Promise<{ input: ChatMessage[]; output: ChatMessage; inputOmitted: number } | null> {
  const k = await db.runSpan.count({ where: { runId, kind: "inference", status: "ok", startedAt: { lt: startedAt } } });
  const [produced] = await db.runMessage.findMany({ where: { runId, role: "assistant" }, orderBy: { index: "asc" }, skip: k, take: 1, select: { index: true, data: true } });
  if (!produced) return null;
  const inputOmitted = Math.max(0, produced.index - cap);
  const before = await db.runMessage.findMany({ where: { runId, index: { lt: produced.index, gte: inputOmitted } }, orderBy: { index: "asc" }, select: { data: true } });
  return { input: before.map((m) => JSON.parse(m.data) as ChatMessage), output: JSON.parse(produced.data) as ChatMessage, inputOmitted };
}

/** The runs of the given trees (roots and sub-runs): who ran what under which parent. */
export function readRunTreesOf(db: Db, rootRunIds: string[]): Promise<{ id: string; rootRunId: string; parentRunId: string | null; agentName: string }[]> {
  return db.run.findMany({ where: { rootRunId: { in: rootRunIds } }, select: { id: true, rootRunId: true, parentRunId: true, agentName: true } });
}

/** A run's newest assistant messages (raw JSON), newest first. */
export function readLatestAssistantMessages(db: Db, runId: string, take: number): Promise<{ data: string }[]> {
  return db.runMessage.findMany({ where: { runId, role: "assistant" }, orderBy: { index: "desc" }, take, select: { data: true } });
}

/** The answers (text, and typed answer as JSON text) of the given runs, for a plan node reading its dependencies' results by reference. */
export function readRunOutputs(db: Db, runIds: readonly string[]): Promise<{ id: string; output: string | null; outputData: string | null }[]> {
  return db.run.findMany({ where: { id: { in: [...new Set(runIds)] } }, select: { id: true, output: true, outputData: true } });
}

/** Who started the run tree `runId` belongs to (its root's starter, an email), or undefined for an unknown run. */
export async function readRunTreeStarter(db: Db, runId: string): Promise<{ rootRunId: string; startedBy: string | null } | undefined> {
  const row = await db.run.findUnique({ where: { id: runId }, select: { rootRunId: true, startedBy: true } });
  if (!row) return undefined;
  if (row.rootRunId === runId) return { rootRunId: runId, startedBy: row.startedBy };
  const root = await db.run.findUnique({ where: { id: row.rootRunId }, select: { startedBy: true } });
  return { rootRunId: row.rootRunId, startedBy: root?.startedBy ?? row.startedBy };
}

/** What the run diff reads of a run and the runs below it (lib/runs/server/compare.ts). */
export interface TreeLedger {
  runs: { id: string; parentRunId: string | null; agentName: string; startedAt: Date }[];
  /** Events of the asked types, per run in sequence order. */
  events: { runId: string; event: RunEvent }[];
  /** Model-call and tool spans, per run in start order; `replayed` from the span's data or attributes; times in ms (end null while open). */
  spans: { runId: string; spanId: string; kind: "inference" | "tool"; status: string; callId: string | null; replayed: boolean; startMs: number; endMs: number | null }[];
  /** Assistant messages, per run in conversation order. */
  assistantMessages: { runId: string; message: Extract<ChatMessage, { role: "assistant" }> }[];
}

/** `runId` and every run below it in its tree (the whole tree when it is the root), with the tree's root; null for an unknown run. */
async function subtreeRuns(db: Db, runId: string) {
  const top = await db.run.findUnique({ where: { id: runId }, select: { rootRunId: true } });
  if (!top) return null;
  const all = await db.run.findMany({ where: { rootRunId: top.rootRunId }, select: { id: true, parentRunId: true, agentName: true, startedAt: true } });
  const children = new Map<string, typeof all>();
  for (const r of all) {
    if (r.parentRunId === null) continue;
    const kids = children.get(r.parentRunId);
    if (kids) kids.push(r);
    else children.set(r.parentRunId, [r]);
  }
  const below = new Set([runId]);
  for (const id of below) for (const kid of children.get(id) ?? []) below.add(kid.id);
  return { rootRunId: top.rootRunId, below, runs: all.filter((r) => below.has(r.id)) };
}

/**
 * How many rows readTreeLedger would read for `runId` (events of `eventTypes`, model and tool spans, assistant
 * messages), counted by the database without reading them: a comparison refuses trees too large to diff before
 * it reads them. Null for an unknown run.
 */
export async function countTreeLedger(db: Db, runId: string, eventTypes: readonly RunEvent["type"][]): Promise<number | null> {
  const tree = await subtreeRuns(db, runId);
  if (!tree) return null;
  const ids = [...tree.below];
  let rows = 0;
  // In slices, so a tree of thousands of sub-runs stays under every provider's bound on parameters.
  for (let i = 0; i < ids.length; i += 500) {
    const runIds = ids.slice(i, i + 500);
    const [events, spans, messages] = await Promise.all([
      db.runEvent.count({ where: { runId: { in: runIds }, type: { in: [...eventTypes] } } }),
      db.runSpan.count({ where: { runId: { in: runIds }, kind: { in: ["inference", "tool"] } } }),
      db.runMessage.count({ where: { runId: { in: runIds }, role: "assistant" } }),
    ]);
    rows += events + spans + messages;
  }
  return rows;
}

/** The ledger of `runId` and every run below it in its tree, for comparing two runs step by step. */
export async function readTreeLedger(db: Db, runId: string, eventTypes: readonly RunEvent["type"][]): Promise<TreeLedger | null> {
  const tree = await subtreeRuns(db, runId);
  if (!tree) return null;
  const { below, runs } = tree;
  const top = { rootRunId: tree.rootRunId };
  const postgres = dbProvider(db) === "postgresql";
  // Each table read as ONE text value the database concatenates (rows in order, the JSON columns passed
  // through unparsed, spans narrowed to what the diff uses): a 5,000-span run costs three rows through
  // Prisma, not 10,000 row objects (measured ~10× faster), then one JSON.parse each.
  const p = (n: number) => (postgres ? `$${n}` : `?${n}`);
  const inTree = runId === top.rootRunId ? `run_id IN (SELECT id FROM runs WHERE root_run_id = ${p(1)})` : `run_id IN (${runs.map((_, i) => p(i + 1)).join(", ")})`;
  const treeArgs = runId === top.rootRunId ? [runId] : runs.map((r) => r.id);
  const typeList = eventTypes.map((_, i) => p(treeArgs.length + i + 1)).join(", ");
  const concat = (item: string, order: string) => (postgres ? `'[' || coalesce(string_agg(${item}, ',' ORDER BY ${order}), '') || ']'` : `'[' || coalesce(group_concat(${item}, ','), '') || ']'`);
  const quote = (column: string) => (postgres ? `to_json(${column})::text` : `json_quote(${column})`);
  const row = (...items: string[]) => `'[' || ${items.join(" || ',' || ")} || ']'`;
  // SQLite concatenates a subquery's rows in its order; PostgreSQL orders inside the aggregate.
  const from = (table: string, where: string, order: string) => (postgres ? `FROM ${table} WHERE ${where}` : `FROM (SELECT * FROM ${table} WHERE ${where} ORDER BY ${order})`);
  const spanCallId = postgres ? `CASE WHEN jsonb_typeof(data::jsonb #> '{attributes,callId}') = 'string' THEN data::jsonb #>> '{attributes,callId}' END` : `CASE WHEN json_type(data, '$.attributes.callId') = 'text' THEN json_extract(data, '$.attributes.callId') END`;
  const spanReplayed = postgres
    ? `CASE WHEN data::jsonb -> 'replayed' = 'true'::jsonb OR data::jsonb #> '{attributes,replayed}' = 'true'::jsonb THEN 'true' ELSE 'false' END`
    : `CASE WHEN json_type(data, '$.replayed') = 'true' OR json_type(data, '$.attributes.replayed') = 'true' THEN 'true' ELSE 'false' END`;
  const read = async (sql: string, args: unknown[]): Promise<unknown[]> => {
    const [result] = await db.$queryRawUnsafe<{ json: string | null }[]>(sql, ...args);
    return JSON.parse(result?.json ?? "[]") as unknown[];
  };
  // PostgreSQL's to_json(NULL) is NULL, which would void the whole row's text.
  const nullable = (sql: string) => `coalesce(${sql}, 'null')`;
  // A span's times in ms, as text (a step's duration is end − start: lib/runs/step-duration.ts).
  const ms = (column: string) => nullable(postgres ? `(${pgMs(column)})::text` : `CAST(${sqliteMs(column)} AS TEXT)`);
  const [events, spans, messages] = await Promise.all([
    read(`SELECT ${concat(row(quote("run_id"), "data"), "run_id, seq")} AS json ${from("run_events", `${inTree} AND type IN (${typeList})`, "run_id, seq")}`, [...treeArgs, ...eventTypes]),
    read(
      `SELECT ${concat(row(quote("run_id"), quote("span_id"), quote("kind"), quote("status"), nullable(quote(spanCallId)), spanReplayed, ms("started_at"), ms("ended_at")), "run_id, started_at, span_id")} AS json ${from("run_spans", `${inTree} AND kind IN ('inference', 'tool')`, "run_id, started_at, span_id")}`,
      treeArgs,
    ),
    read(`SELECT ${concat(row(quote("run_id"), "data"), `run_id, "index"`)} AS json ${from("run_messages", `${inTree} AND role = 'assistant'`, `run_id, "index"`)}`, treeArgs),
  ]);
  const mine = (r: unknown): r is [string, ...unknown[]] => Array.isArray(r) && below.has(r[0] as string);
  return {
    runs,
    events: events.filter(mine).map(([id, event]) => ({ runId: id, event: event as RunEvent })),
    spans: (spans.filter(mine) as [string, string, string, string, string | null, boolean, number, number | null][]).map(([id, spanId, kind, status, callId, replayed, startMs, endMs]) => ({
      runId: id,
      spanId,
      kind: kind as "inference" | "tool",
      status,
      callId,
      replayed,
      startMs: Number(startMs),
      endMs: endMs === null ? null : Number(endMs),
    })),
    assistantMessages: messages.filter(mine).map(([id, message]) => ({ runId: id, message: message as Extract<ChatMessage, { role: "assistant" }> })),
  };
}

/** An approval record as datasets learn from it (lib/datasets): JSON fields still as text. */
export interface ApprovalRecordRow {
  id: string;
  runId: string;
  rootRunId: string;
  toolName: string;
  toolCallId: string;
  arguments: string;
  editedArguments: string | null;
  status: string;
  reason: string | null;
  decidedByEmail: string | null;
  decidedAt: Date | null;
}

/** Decided approvals (approved, rejected, expired), newest decision first, narrowed by any of ids, runs, trees and tool. */
export function readDecidedApprovals(db: Db, where: { ids?: string[]; runIds?: string[]; rootRunIds?: string[]; tool?: string; excludeTools?: string[] }, page: { skip?: number; take: number }): Promise<ApprovalRecordRow[]> {
  return db.approvalRecord.findMany({
    where: {
      status: { in: ["approved", "rejected", "expired"] },
      ...(where.ids ? { id: { in: where.ids } } : {}),
      ...(where.runIds ? { runId: { in: where.runIds } } : {}),
      ...(where.rootRunIds ? { rootRunId: { in: where.rootRunIds } } : {}),
      ...(where.tool || where.excludeTools ? { toolName: { ...(where.tool ? { equals: where.tool } : {}), ...(where.excludeTools ? { notIn: where.excludeTools } : {}) } } : {}),
    },
    select: { id: true, runId: true, rootRunId: true, toolName: true, toolCallId: true, arguments: true, editedArguments: true, status: true, reason: true, decidedByEmail: true, decidedAt: true },
    orderBy: [{ decidedAt: "desc" }, { id: "asc" }],
    skip: page.skip ?? 0,
    take: page.take,
  });
}

/** One approval's record by id (pending or decided), or null: the approval page (app/(dashboard)/approvals/[approvalId]). */
export function readApprovalRecord(db: Db, id: string): Promise<(ApprovalRecordRow & { agentName: string }) | null> {
  return db.approvalRecord.findUnique({
    where: { id },
    select: { id: true, runId: true, rootRunId: true, agentName: true, toolName: true, toolCallId: true, arguments: true, editedArguments: true, status: true, reason: true, decidedByEmail: true, decidedAt: true },
  });
}

/** A run one could compare `runId` with: one of its forks, its origin, or a recent run of its graph. */
export interface CompareCandidateRow {
  id: string;
  status: string;
  task: string;
  startedAt: Date;
  forkOfRunId: string | null;
}

/**
 * Runs of the same graph as `runId` to compare it with: its forks and the run it was forked
 * from, then the newest top-level runs of the graph (an inline graph: of its entry agent).
 * Null for an unknown run.
 */
export async function readCompareCandidates(db: Db, runId: string, take: number): Promise<{ graphName: string | null; related: CompareCandidateRow[]; recent: CompareCandidateRow[] } | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { graphName: true, agentName: true, forkOfRunId: true } });
  if (!run) return null;
  const select = { id: true, status: true, task: true, startedAt: true, forkOfRunId: true } as const;
  const sameGraph = run.graphName !== null ? { graphName: run.graphName } : { graphName: null, agentName: run.agentName };
  const [forks, origin, recent] = await Promise.all([
    db.run.findMany({ where: { forkOfRunId: runId }, orderBy: { startedAt: "desc" }, take, select }),
    run.forkOfRunId ? db.run.findUnique({ where: { id: run.forkOfRunId }, select }) : null,
    db.run.findMany({ where: { ...sameGraph, parentRunId: null, id: { not: runId } }, orderBy: { startedAt: "desc" }, take, select }),
  ]);
  const related = [...(origin ? [origin] : []), ...forks];
  const shown = new Set(related.map((r) => r.id));
  return { graphName: run.graphName, related, recent: recent.filter((r) => !shown.has(r.id)) };
}
