import "server-only";
// Reads behind the runs list and the run page: the ledger's run rows (which
// outlive Temporal's retention) joined with Temporal's visibility for the live
// execution status, and usage rolled up from inference spans.
import { getDb } from "../../db/server/db";
import { loadPriceBook } from "../../pricing/server/price-book";
import { getTemporalClient } from "../../temporal/server/client";
import {
  readAwaitingRoots,
  readEventPage,
  readEventsOfTypes,
  readFailureDetails,
  readLastPlanFinished,
  readMessages,
  readMessagesFrom,
  readOpenTimerSpan,
  readRunRow,
  readRunRows,
  readRunTree,
  readSpanRowsJson,
  readSpans,
  readSpansChangedSince,
  readSubRuns,
  parseOutputData,
  planOutcomeOf,
  type RunRow,
  type RunRowFilter,
} from "../../run-ledger/read";
import { readSortedRunPage } from "./sorted-runs";
import { toSpanView } from "../span-rows";
import { isMarkerEvent, MARKER_EVENT_TYPES, type MarkerEvent } from "../orchestration-view";
import { RunNotFound } from "../../engine/errors";
import { readVisibility } from "../../engine/visibility";
import type { ChatMessage, RunStatus } from "../../contract/types";
import { followUpDeadline } from "../run-time";
import type { ImageRef } from "../../attachments/schemas";
import type { RunFilters, RunHeaderData, RunLabelRef, RunListPage, RunListRow, RunTail, TraceSpanView } from "../schemas";
import { ownUsage, rollUp, ZERO_USAGE } from "./usage";
import { bestHits, facetRootIds, MATCHING_TREES_MAX, searchRootIds } from "../../search/server/query";
import { stuckOrBurning, type StuckTree } from "./stuck-runs";
import type { Db } from "../../db/prisma";
import { readDeriveLag, type DeriveLag } from "../../db/derive-lag";
import { feedbackRootIds } from "../../feedback/server/feedback";
import { readVersionNumbers } from "../../run-ledger/version-refs";
import { readRunScores, scoreRootIds } from "./run-scores";
import { hasScoreFilter } from "../run-scores";

/** The version label a run was started by and the side of its split it drew (absent for runs started otherwise). */
function labelRefOf(run: { label: string | null; labelVariant: string | null }): { label?: RunLabelRef } {
  if (!run.label) return {};
  return { label: { name: run.label, variant: run.labelVariant === "base" || run.labelVariant === "split" ? run.labelVariant : null } };
}

/** Temporal's status of each run on the page; an unreachable Temporal is a note, not a failure (the ledger still answers). */
async function temporalStatuses(runIds: string[]): Promise<{ statuses: Map<string, string>; note: string | null }> {
  try {
    const visibility = await readVisibility(getTemporalClient(), runIds);
    return { statuses: new Map([...visibility].map(([id, seen]) => [id, seen.status])), note: null };
  } catch {
    return { statuses: new Map(), note: "Temporal's visibility is not answering: statuses come from the run ledger." };
  }
}

/** Intersection of id lists, in the first list's order; undefined lists do not narrow. */
function intersect(lists: (string[] | undefined)[]): string[] | undefined {
  const given = lists.filter((l): l is string[] => l !== undefined);
  if (given.length === 0) return undefined;
  const [first, ...rest] = given;
  const others = rest.map((l) => new Set(l));
  return first!.filter((id) => others.every((o) => o.has(id)));
}

/**
 * The trees the search, tool, model, view and feedback filters leave (root run ids), or
 * undefined when none is set; each gives at most MATCHING_TREES_MAX trees, newest first.
 */
async function narrowedTrees(db: Db, filters: RunFilters): Promise<{ ids: string[] | undefined; exclude: string[] | undefined; capped: boolean; stuck: Map<string, StuckTree> | null }> {
  const [searched, byTool, byModel, stuck, byFeedback, byScore] = await Promise.all([
    filters.q ? searchRootIds(db, filters.q) : undefined,
    filters.tool ? facetRootIds(db, "tool", filters.tool) : undefined,
    filters.model ? facetRootIds(db, "model", filters.model) : undefined,
    filters.view === "stuck" ? stuckOrBurning(db, filters) : null,
    filters.feedback ? feedbackRootIds(db, filters.feedback) : undefined,
    hasScoreFilter(filters) ? scoreRootIds(db, filters) : undefined,
  ]);
  const capped = [searched, byTool, byModel, byScore].some((l) => l !== undefined && l.length >= MATCHING_TREES_MAX);
  return { ids: intersect([searched, byTool, byModel, stuck ? [...stuck.keys()] : undefined, byFeedback?.include, byScore]), exclude: byFeedback?.exclude, capped, stuck };
}

/** Whether a filter narrows the list by derived rows (search index, facets), which trail the ledger by a moment. */
function readsDerivedRows(filters: RunFilters): boolean {
  return Boolean(filters.q || filters.tool || filters.model || filters.view === "stuck");
}

/** One page of top-level runs, newest first, each with its sub-runs grouped under it. */
export async function listRunPage(filters: RunFilters): Promise<RunListPage> {
  const db = getDb();
  // Read before the index, not beside it: a pass that derives between the two reads then shows as still
  // queued (the list reads again a second later), never as indexed while the index read missed it.
  const lag: DeriveLag | null = readsDerivedRows(filters) ? await readDeriveLag(db) : null;
  const narrowed = await narrowedTrees(db, filters);
  let versionIds: string[] | null = null;
  if (filters.version !== undefined) {
    const versions = await db.agentVersion.findMany({ where: { version: filters.version, ...(filters.graph ? { agent: { name: filters.graph } } : {}) }, select: { id: true } });
    versionIds = versions.map((v) => v.id);
  }
  // A tree is listed when any of its runs waits for a decision, sub-runs included.
  const awaitingRoots = filters.awaitingApproval ? await readAwaitingRoots(db) : undefined;
  const rowFilter: RunRowFilter = {
    topLevel: true,
    status: filters.status === "active" ? undefined : filters.status,
    working: filters.status === "active",
    errorReason: filters.reason,
    routedTo: filters.routedTo,
    planOutcome: filters.planOutcome,
    graph: filters.graph,
    agentVersionIds: versionIds ?? undefined,
    startedBy: filters.startedBy,
    runIds: intersect([narrowed.ids, awaitingRoots]),
    excludeRunIds: narrowed.exclude,
    // Asking for the runs experiments started shows them without the checkbox.
    hideExperimentRuns: !filters.experiments && filters.trigger !== "experiment",
    scheduleId: filters.scheduleId,
    webhookId: filters.webhook,
    label: filters.label,
    trigger: filters.trigger,
    startedFrom: filters.from ? new Date(filters.from) : undefined,
    startedTo: filters.to ? new Date(filters.to) : undefined,
  };
  const skip = (filters.page - 1) * filters.pageSize;
  const order = filters.order ?? "desc";
  // Newest or oldest first is the database's index order; another order is sorted by the list's own figures.
  const sorted =
    filters.sort && filters.sort !== "started"
      ? await readSortedRunPage(db, rowFilter, { sort: filters.sort, order, skip, take: filters.pageSize, prices: await loadPriceBook(db) })
      : { ...(await readRunRows(db, rowFilter, { skip, take: filters.pageSize, oldestFirst: filters.sort === "started" && order === "asc" })), note: null };
  const { rows: roots, total } = sorted;
  const family = await readSubRuns(db, roots.map((r) => r.id));
  const all = [...roots, ...family];
  const [versions, own, temporal, hits, scores] = await Promise.all([
    readVersionNumbers(db, all),
    ownUsage(db, all.map((r) => r.id), await loadPriceBook(db)),
    temporalStatuses(all.map((r) => r.id)),
    filters.q ? bestHits(db, filters.q, roots.map((r) => r.id)) : undefined,
    readRunScores(db, roots.map((r) => r.id)),
  ]);
  const totals = rollUp(all, own);
  const toRow = (run: RunRow): RunListRow => ({
    runId: run.id,
    parentRunId: run.parentRunId,
    agentName: run.agentName,
    graphName: run.graphName,
    version: versions.get(run.id)?.version ?? null,
    variantOf: versions.get(run.id)?.variantOf ?? null,
    startedBy: run.startedBy,
    task: run.task.slice(0, 300),
    status: run.status as RunStatus,
    temporalStatus: temporal.statuses.get(run.id) ?? null,
    pendingApprovals: run.pendingApprovals,
    error: run.errorReason ? { reason: run.errorReason, message: run.errorMessage ?? "" } : null,
    routedTo: run.routedTo,
    planOutcome: planOutcomeOf(run),
    ...labelRefOf(run),
    startedAt: run.startedAt.toISOString(),
    endedAt: run.endedAt?.toISOString() ?? null,
    self: own.get(run.id) ?? ZERO_USAGE,
    total: totals.get(run.id) ?? ZERO_USAGE,
    subRuns: family.filter((child) => child.parentRunId === run.id).map(toRow),
  });
  const rows = roots.map((root) => ({
    ...toRow(root),
    // Online evaluators score root runs only (lib/online-eval): a sub-run's row has no score of its own.
    score: scores.get(root.id) ?? null,
    ...(hits ? { match: hits.get(root.id) ?? null } : {}),
    ...(narrowed.stuck ? { stuck: narrowed.stuck.get(root.id)?.reasons ?? [], waitingApproval: narrowed.stuck.get(root.id)?.waitingApproval ?? null } : {}),
  }));
  const matchNote = narrowed.capped ? `Showing the newest ${MATCHING_TREES_MAX.toLocaleString("en")} matching runs; narrow the search to see older ones.` : null;
  return { rows, total, page: filters.page, pageSize: filters.pageSize, temporalNote: temporal.note, matchNote, sortNote: sorted.note, ...(lag && lag.queued > 0 ? { indexBehind: lag } : {}) };
}

async function requireRun(runId: string): Promise<RunRow> {
  const run = await readRunRow(getDb(), runId);
  if (!run) throw new RunNotFound(runId);
  return run;
}

function parseContext(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Until when a root run that answered waits for a follow-up: the deadline of
 * its open follow-up window (the timer span the workflow starts after the
 * answer); null for a run that works, ended, or is a sub-run.
 */
async function openFollowUpWindow(run: RunRow): Promise<string | null> {
  if (run.status !== "completed" || run.parentRunId !== null) return null;
  const open = await readOpenTimerSpan(getDb(), run.id);
  return open ? followUpDeadline(open.attributes) : null;
}

/** The run page header: status and usage as self and including sub-runs. */
export async function runHeader(runId: string): Promise<RunHeaderData> {
  const db = getDb();
  const run = await requireRun(runId);
  // Descendants share the root; filtering by the parent chain keeps only this run's subtree.
  const family = await readRunTree(db, run.rootRunId);
  const inSubtree = new Set([run.id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of family) {
      if (r.parentRunId && inSubtree.has(r.parentRunId) && !inSubtree.has(r.id)) {
        inSubtree.add(r.id);
        grew = true;
      }
    }
  }
  const subtree = family.filter((r) => inSubtree.has(r.id));
  // A run waits for a decision when it or a run below it does (a plan node whose sub-agent asks counts too).
  const parentOf = new Map(family.map((r) => [r.id, r.parentRunId]));
  const awaitingApproval = new Set<string>();
  for (const r of subtree) {
    if (r.status !== "awaiting_approval") continue;
    for (let id: string | null | undefined = r.id; id && inSubtree.has(id) && !awaitingApproval.has(id); id = parentOf.get(id)) awaitingApproval.add(id);
  }
  const own = await ownUsage(db, [...inSubtree], await loadPriceBook(db));
  const totals = rollUp(subtree.map((r) => (r.id === run.id ? { ...r, parentRunId: null } : r)), own);
  const versions = (await readVersionNumbers(db, [run])).get(run.id);
  // Only a failed run has details, and the page polls this header: other runs read no event.
  const details = run.status === "failed" && run.errorReason ? await readFailureDetails(db, run.id) : undefined;
  // Likewise only a run whose plan finished reads the counts (the row holds the outcome alone).
  const planFinished = run.planOutcome !== null ? await readLastPlanFinished(db, run.id) : null;
  const schedule = run.scheduleId ? { id: run.scheduleId, name: (await db.schedule.findUnique({ where: { id: run.scheduleId }, select: { name: true } }))?.name ?? null } : null;
  const webhook = run.webhookId ? { id: run.webhookId, name: (await db.webhookEndpoint.findUnique({ where: { id: run.webhookId }, select: { name: true } }))?.name ?? null } : null;
  return {
    ...(schedule ? { schedule } : {}),
    ...(webhook ? { webhook } : {}),
    runId: run.id,
    rootRunId: run.rootRunId,
    parentRunId: run.parentRunId,
    agentName: run.agentName,
    graphName: run.graphName,
    version: versions?.version ?? null,
    variantOf: versions?.variantOf ?? null,
    startedBy: run.startedBy,
    task: run.task,
    context: parseContext(run.context),
    status: run.status as RunStatus,
    iteration: run.iteration,
    pendingApprovals: run.pendingApprovals,
    output: run.output,
    typedOutput: run.outputData !== null ? { data: parseOutputData(run.outputData) } : null,
    routedTo: run.routedTo,
    planOutcome: planOutcomeOf(run),
    ...labelRefOf(run),
    planCounts: planFinished ? { completed: planFinished.completed, failed: planFinished.failed, skipped: planFinished.skipped, cancelled: planFinished.cancelled ?? 0 } : null,
    error: run.errorReason ? { reason: run.errorReason, message: run.errorMessage ?? "", ...(details ? { details } : {}) } : null,
    startedAt: run.startedAt.toISOString(),
    endedAt: run.endedAt?.toISOString() ?? null,
    followUpUntil: await openFollowUpWindow(run),
    lastEventSeq: run.lastEventSeq,
    self: own.get(run.id) ?? ZERO_USAGE,
    total: totals.get(run.id) ?? ZERO_USAGE,
    awaitingApprovalRunIds: [...awaitingApproval],
  };
}

/** Every span of a run, in start order. */
export async function runSpans(runId: string): Promise<TraceSpanView[]> {
  await requireRun(runId);
  const prices = await loadPriceBook();
  return (await readSpans(getDb(), runId)).map((s) => toSpanView(runId, s, prices));
}

/**
 * A page of a run's spans in start order, as the JSON text of a SpanRowPage
 * (lib/runs/span-rows.ts): the trace view shows the first page at once and
 * reads the rest in the background, so a 200,000-span trace is interactive
 * long before all of it has arrived. `total` lets the client ask for the later
 * pages at once. The rows are the database's JSON, passed through unparsed.
 */
export async function runSpanPageJson(runId: string, offset: number, limit: number): Promise<string> {
  const run = await requireRun(runId);
  const page = await readSpanRowsJson(getDb(), runId, offset, limit);
  const nextOffset = offset + page.count < page.total ? offset + page.count : null;
  // The run's times, so its own span is drawn as long as the run worked wherever it is shown (lib/runs/run-time.ts).
  const times = { startedAt: run.startedAt.toISOString(), endedAt: run.endedAt?.toISOString() ?? null };
  return `{"runId":${JSON.stringify(runId)},"run":${JSON.stringify(times)},"nextOffset":${nextOffset},"total":${page.total},"prices":${JSON.stringify(await loadPriceBook())},"rows":${page.json}}`;
}

/**
 * One poll of a live run: events after `since` (paged by count and bytes), the
 * spans that can have changed since those events (open ones, and ones started
 * or ended from shortly before the first new event — spans and events are
 * written in the same ledger transaction), and the header.
 */
export async function runTail(runId: string, since: number, options: { limit?: number; maxBytes?: number } = {}): Promise<RunTail> {
  const db = getDb();
  await requireRun(runId);
  const page = await readEventPage(db, runId, since, options);
  let spans: TraceSpanView[] = [];
  let spanCursor: string | null = null;
  const first = page.events[0];
  if (first) {
    const cursor = new Date(new Date(first.at).getTime() - 2000);
    spanCursor = cursor.toISOString();
    const prices = await loadPriceBook(db);
    spans = (await readSpansChangedSince(db, runId, cursor)).map((span) => toSpanView(runId, span, prices));
  }
  return { ...page, spans, spanCursor, header: await runHeader(runId) };
}

/** The conversation from message `from` on, at most 2,000 messages per call. */
export async function runMessages(runId: string, from: number): Promise<{ index: number; message: ChatMessage }[]> {
  await requireRun(runId);
  return readMessagesFrom(getDb(), runId, from, 2000);
}

/** Run-level moments drawn across the timeline: continue-as-new boundaries, follow-ups, handoffs, routing decisions and rejected answers. */
export async function runMarkers(runId: string): Promise<MarkerEvent[]> {
  return (await readEventsOfTypes(getDb(), runId, MARKER_EVENT_TYPES, { take: 500 })).filter(isMarkerEvent);
}

/** The images the run's task came with (its first user message's), for the run header and Re-run. */
export async function runTaskImages(runId: string): Promise<ImageRef[]> {
  const first = (await readMessages(getDb(), runId, 2)).find((m) => m.role === "user");
  return first?.role === "user" ? (first.images ?? []) : [];
}
