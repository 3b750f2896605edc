// Claiming runs for an evaluator: the `online_evaluations` row is the claim,
// unique per (evaluator, root run), inserted one by one with a unique violation
// read as "someone claimed it first" — so two claimers (a retried activity, a
// backfill beside the live loop, two workers) never evaluate a run twice. The
// decision to sample or skip for the cap is taken here, recorded on the row, and
// never taken again (but a pending row is skipped for the cap at scoring time
// when the spend since its claim reached it: worker/activities/online-eval.ts). Which runs: the graph's root runs (not an experiment's, not
// a fork: a fork replays a recorded run for debugging, it is not live traffic)
// that ended, matched by the evaluator's version, label and filters.
// No `server-only`: the worker's activities call it.
import type { Db } from "../db/prisma";
import { retryReason } from "../db/contention";
import { readConversationsClosed, readEndedRootRuns, readRootRunsById, type EndedRootRun } from "../run-ledger/evaluation-reads";
import { inSample, EVALUATED_STATUSES, type EvaluationStatus } from "./schemas";
import { evaluatorConfigOf, utcDayStart, type EvaluatorConfig } from "./rows";
import type { ScanCursor } from "./temporal";

/** Rows claimed per pass, at most. */
export const CLAIM_BATCH = 50;
/** Candidate runs read per pass. */
const SCAN_BATCH = 200;
/**
 * How far behind its high-water mark a live scan looks again: the ledger commits a run's end a little after the
 * moment it records, so a run that ended just before the mark may appear once the mark has passed it.
 */
export const SETTLE_MS = 30_000;
/** The claimed runs excluded from a scan's window, at most (the window is SETTLE_MS wide, so this is ample). */
const EXCLUDED_MAX = 5_000;
/** A run without the model or tool facet this long after its end is taken not to match (facets are derived after the run). */
const FACET_SETTLE_MS = 60_000;
/** Undecided runs a scan position may pass and remember; past it, the position waits for the first of them, as before. */
export const WAITING_MAX = 200;

const evaluationId = () => `oee_${crypto.randomUUID().replaceAll("-", "")}`;

type CandidateRun = EndedRootRun;

/** The ledger query for the evaluator's own fields (the graph, version, label and the list's filters). */
async function runsQuery(db: Db, config: EvaluatorConfig) {
  let versionIds: string[] | null = null;
  if (config.version !== null) {
    const versions = await db.agentVersion.findMany({ where: { agent: { name: config.graph }, version: config.version }, select: { id: true } });
    versionIds = versions.map((v) => v.id);
  }
  const filters = config.filters;
  return {
    graph: config.graph,
    versionIds,
    label: config.label,
    statuses: filters.statuses ?? EVALUATED_STATUSES,
    ...(filters.startedBy ? { startedBy: filters.startedBy } : {}),
    ...(filters.trigger ? { trigger: filters.trigger } : {}),
  };
}

/** Which of `ids` carry every facet the filters ask for (a model used, a tool called). */
async function withFacets(db: Db, config: EvaluatorConfig, ids: string[]): Promise<Set<string> | null> {
  const wanted = [...(config.filters.model ? [{ kind: "model", value: config.filters.model }] : []), ...(config.filters.tool ? [{ kind: "tool", value: config.filters.tool }] : [])];
  if (!wanted.length || !ids.length) return null;
  const rows = await db.runFacet.findMany({ where: { rootRunId: { in: ids }, OR: wanted }, select: { rootRunId: true, kind: true } });
  const kinds = new Map<string, Set<string>>();
  for (const row of rows) kinds.set(row.rootRunId, (kinds.get(row.rootRunId) ?? new Set()).add(row.kind));
  return new Set([...kinds].filter(([, found]) => wanted.every((w) => found.has(w.kind))).map(([id]) => id));
}

/** Today's (UTC) judge spend of the evaluator. */
export async function spentToday(db: Db, evaluatorId: string, now: Date): Promise<number> {
  const sum = await db.onlineEvaluation.aggregate({ where: { evaluatorId, evaluatedAt: { gte: utcDayStart(now) } }, _sum: { costUsd: true } });
  return sum._sum.costUsd ?? 0;
}

/** What the claim decides for a run: pending (to score), out of the sample, or over today's cap. */
export function claimStatus(config: Pick<EvaluatorConfig, "id" | "samplingRate" | "dailySpendCapUsd">, runId: string, spent: number): EvaluationStatus {
  if (!inSample(config.id, runId, config.samplingRate)) return "skipped_sampling";
  if (config.dailySpendCapUsd !== null && spent >= config.dailySpendCapUsd) return "skipped_cap";
  return "pending";
}

/** Inserts the claim; false when another claimer holds it already. */
async function insertClaim(db: Db, config: EvaluatorConfig, run: CandidateRun, endedAt: Date, status: EvaluationStatus, source: string, now: Date): Promise<boolean> {
  let version: number | null = null;
  if (run.agentVersionId) version = (await db.agentVersion.findUnique({ where: { id: run.agentVersionId }, select: { version: true } }))?.version ?? null;
  try {
    await db.onlineEvaluation.create({
      data: {
        id: evaluationId(),
        evaluatorId: config.id,
        runId: run.id,
        graph: config.graph,
        version,
        label: run.label,
        status,
        source,
        runEndedAt: endedAt,
        claimedAt: now,
        evaluatedAt: status === "pending" ? null : now,
      },
    });
    return true;
  } catch (error) {
    if (retryReason(error) === "unique_violation") return false;
    throw error;
  }
}

export type LiveClaim =
  | { state: "gone" | "disabled" }
  | {
      state: "active";
      /** Pending rows of the evaluator's live claims, to score (those of a pass that died before scoring too). */
      pending: string[];
      claimed: number;
      cursor: ScanCursor | null;
      /** More may be due right now (a full batch): the caller goes on without sleeping. */
      more: boolean;
    };

/**
 * One live pass: claims the runs due (ended at or after the evaluator's activeFrom and at least its delay ago;
 * for a conversation, closed that long ago) that nobody claimed, up to CLAIM_BATCH, and answers the pending
 * rows to score with the scan's new high-water mark.
 */
export async function claimDueEvaluations(db: Db, evaluatorId: string, cursor: ScanCursor | null, now: Date = new Date()): Promise<LiveClaim> {
  const row = await db.onlineEvaluator.findUnique({ where: { id: evaluatorId } });
  if (!row) return { state: "gone" };
  if (!row.enabled) return { state: "disabled" };
  const config = evaluatorConfigOf(row);
  const horizon = new Date(now.getTime() - config.delaySeconds * 1000);
  const lowWater = new Date(Math.max(config.activeFrom.getTime(), cursor ? Date.parse(cursor.endedAt) - SETTLE_MS : 0));
  const excluded = await db.onlineEvaluation.findMany({ where: { evaluatorId, runEndedAt: { gte: lowWater } }, select: { runId: true }, take: EXCLUDED_MAX });
  const scanned = await readEndedRootRuns(db, { ...(await runsQuery(db, config)), from: lowWater, to: horizon, excludeIds: excluded.map((e) => e.runId), take: SCAN_BATCH });
  // The runs passed undecided, first (they ended before the position), then the scan's; each once.
  const waitingIds = cursor?.waiting ?? [];
  const waitingRuns = waitingIds.length ? await readRootRunsById(db, waitingIds) : [];
  const seen = new Set<string>();
  const candidates = [...waitingRuns, ...scanned].filter((run) => !seen.has(run.id) && Boolean(seen.add(run.id)));
  const ids = candidates.map((c) => c.id);
  const [faceted, closed] = await Promise.all([withFacets(db, config, ids), config.target === "conversation" ? readConversationsClosed(db, ids) : Promise.resolve(null)]);
  let spent = config.dailySpendCapUsd === null ? 0 : await spentToday(db, evaluatorId, now);
  let claimed = 0;
  let position: { endedAt: string; runId: string } | null = cursor ? { endedAt: cursor.endedAt, runId: cursor.runId } : null;
  const waiting = new Set<string>();
  const wasWaiting = new Set(waitingIds);
  let blocked = false;
  let full = false;
  let stoppedAt = candidates.length;
  for (const [index, run] of candidates.entries()) {
    const endedAt = run.endedAt ?? now;
    let decided = true;
    if (faceted && !faceted.has(run.id)) decided = endedAt.getTime() < now.getTime() - FACET_SETTLE_MS;
    else if (closed && !((closed.get(run.id)?.getTime() ?? Infinity) <= horizon.getTime())) decided = false;
    else {
      if (claimed >= CLAIM_BATCH) {
        full = true;
        stoppedAt = index;
        break;
      }
      if (await insertClaim(db, config, run, endedAt, claimStatus(config, run.id, spent), "live", now)) claimed++;
      if (config.dailySpendCapUsd !== null && claimed % 10 === 0) spent = await spentToday(db, evaluatorId, now);
    }
    if (!decided) {
      if (wasWaiting.has(run.id) || (!blocked && waiting.size < WAITING_MAX)) waiting.add(run.id);
      else blocked = true;
    }
    // The position moves over the scan's runs only (the waiting ones are behind it) while nothing before is unremembered.
    if (!blocked && !wasWaiting.has(run.id)) position = { endedAt: endedAt.toISOString(), runId: run.id };
  }
  // A full batch stops early: the waiting runs not looked at stay waiting.
  for (const run of candidates.slice(stoppedAt)) if (wasWaiting.has(run.id)) waiting.add(run.id);
  const next: ScanCursor | null = position ? { ...position, ...(waiting.size ? { waiting: [...waiting] } : {}) } : null;
  const pending = await db.onlineEvaluation.findMany({ where: { evaluatorId, status: "pending", source: "live" }, orderBy: { claimedAt: "asc" }, take: CLAIM_BATCH, select: { id: true } });
  return { state: "active", pending: pending.map((p) => p.id), claimed, cursor: next, more: full || (claimed > 0 && scanned.length === SCAN_BATCH) };
}

export type BackfillPage = { state: "gone" | "done" } | { state: "active"; pending: string[]; claimed: number };

/**
 * One page of a backfill: the next runs (by end, then id) after the cursor stored on the backfill row that ended
 * in [from, to), claimed with the backfill's id as their source (a run claimed before, live or by another
 * backfill, is left as it is), then the cursor moved past them. A retried page claims nothing twice and answers
 * the page's rows still pending. A conversation still open in the past range is left out.
 */
export async function claimBackfillPage(db: Db, backfillId: string, now: Date = new Date()): Promise<BackfillPage> {
  const backfill = await db.onlineEvaluationBackfill.findUnique({ where: { id: backfillId }, include: { evaluator: true } });
  if (!backfill) return { state: "gone" };
  if (backfill.status !== "running") return { state: "done" };
  const config = evaluatorConfigOf(backfill.evaluator);
  const after = backfill.cursorEndedAt && backfill.cursorRunId ? { endedAt: backfill.cursorEndedAt, runId: backfill.cursorRunId } : null;
  const candidates = await readEndedRootRuns(db, { ...(await runsQuery(db, config)), from: backfill.from, to: backfill.to, toExclusive: true, after, take: CLAIM_BATCH });
  const ids = candidates.map((c) => c.id);
  const [faceted, closed] = await Promise.all([withFacets(db, config, ids), config.target === "conversation" ? readConversationsClosed(db, ids) : Promise.resolve(null)]);
  let spent = config.dailySpendCapUsd === null ? 0 : await spentToday(db, config.id, now);
  for (const run of candidates) {
    if (faceted && !faceted.has(run.id)) continue;
    if (closed && !closed.has(run.id)) continue;
    await insertClaim(db, config, run, run.endedAt ?? now, claimStatus(config, run.id, spent), backfillId, now);
    if (config.dailySpendCapUsd !== null) spent = await spentToday(db, config.id, now);
  }
  const last = candidates.at(-1);
  const claimed = await db.onlineEvaluation.count({ where: { evaluatorId: config.id, source: backfillId } });
  await db.onlineEvaluationBackfill.update({ where: { id: backfillId }, data: { claimed, ...(last?.endedAt ? { cursorEndedAt: last.endedAt, cursorRunId: last.id } : {}) } });
  const pending = await db.onlineEvaluation.findMany({ where: { evaluatorId: config.id, source: backfillId, status: "pending" }, select: { id: true }, take: CLAIM_BATCH * 2 });
  if (!candidates.length && !pending.length) {
    await db.onlineEvaluationBackfill.updateMany({ where: { id: backfillId, status: "running" }, data: { status: "done", finishedAt: now } });
    return { state: "done" };
  }
  return { state: "active", pending: pending.map((p) => p.id), claimed };
}
