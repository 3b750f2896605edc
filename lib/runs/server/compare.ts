// Two runs of one graph side by side: both run trees read from the ledger,
// turned into steps (lib/runs/diff/build-steps.ts), aligned step by step
// (lib/runs/diff/align.ts), with the runs' totals and their differences.
// Read only; the route `GET /api/runs/compare` and the compare page call it;
// `GET /api/runs/compare/steps` reads the steps the answer left out (wire.ts).
import "server-only";
import type { Db } from "../../db/prisma";
import { AppError } from "../../errors";
import type { RunEvent, RunStatus } from "../../contract/types";
import { countTreeLedger, readCompareCandidates, readRunRow, readTreeLedger, type CompareCandidateRow, type RunRow } from "../../run-ledger/read";
import { RunNotFound } from "../../engine/errors";
import { readVersionNumbers, type VersionNumbers } from "../../run-ledger/version-refs";
import type { PriceBook } from "../pricing";
import { alignSteps } from "../diff/align";
import { treeSteps, type LedgerRun } from "../diff/build-steps";
import type { CompareCandidate, CompareCandidates, ComparedRun, CompareStepsPage, CompareStepsQuery, RunComparison, StepView } from "../diff/schemas";
import { orderParallel, type RunStep } from "../diff/steps";
import { inlineRows, sparseSteps, stepView } from "../diff/wire";
import { deltaOf, stepTotals } from "../diff/totals";
import { stepDurationMs } from "../step-duration";
import { runDurationMs, runTimes } from "../run-time";

/** The events steps are built from (build-steps.ts); the others are not read. */
const STEP_EVENTS: readonly RunEvent["type"][] = [
  "run_started",
  "user_message",
  "inference_completed",
  "tool_call_started",
  "tool_call_completed",
  "routing_decided",
  "handoff",
  "sub_agent_message",
  "sub_agent_reply",
  "plan_proposed",
  "plan_node_finished",
  "run_completed",
  "run_failed",
  "run_cancelled",
];

/** Neither run of a comparison is known: the message names which. */
export class ComparedRunNotFound extends AppError {
  constructor(which: "a" | "b", runId: string) {
    super("not_found", 404, `There is no run "${runId}" (parameter ${which})`);
    this.name = "ComparedRunNotFound";
  }
}

/**
 * The most ledger rows (step events, model and tool spans, answers) one comparison reads, both trees together:
 * twice the benchmark's pair of 5,000-span runs (~15,000 rows each). Reading and aligning is synchronous work on
 * the web server, so a larger pair is refused before anything is read (issue 36 §3).
 */
export const MAX_COMPARED_ROWS = 60_000;

/** A comparison (or a tree's steps) over MAX_COMPARED_ROWS: 422 saying how large each side is. */
export class ComparisonTooLarge extends AppError {
  constructor(sizes: { which: string; runId: string; rows: number }[]) {
    const total = sizes.reduce((n, s) => n + s.rows, 0);
    const each = sizes.map((s) => `${s.runId}: ${s.rows.toLocaleString("en-US")}`).join(", ");
    super(
      "validation_failed",
      422,
      `Too large to compare: ${sizes.length > 1 ? "these runs hold" : "this run holds"} ${total.toLocaleString("en-US")} ledger rows (${each}); a comparison reads at most ${MAX_COMPARED_ROWS.toLocaleString("en-US")}. Compare sub-runs or shorter runs.`,
      sizes.map((s) => ({ path: s.which, message: `${s.rows} ledger rows` })),
    );
    this.name = "ComparisonTooLarge";
  }
}

/** Throws ComparisonTooLarge when the trees under these runs hold more than MAX_COMPARED_ROWS rows together (counted, not read). */
async function checkComparedSize(db: Db, sides: { which: string; runId: string }[]): Promise<void> {
  const sizes = await Promise.all(sides.map(async (side) => ({ ...side, rows: (await countTreeLedger(db, side.runId, STEP_EVENTS)) ?? 0 })));
  if (sizes.reduce((n, s) => n + s.rows, 0) > MAX_COMPARED_ROWS) throw new ComparisonTooLarge(sizes);
}

/** What identifies a run's graph: the saved graph's name, or the entry agent of an inline graph. */
function graphOf(row: RunRow): string {
  return row.graphName ?? `inline graph of ${row.agentName}`;
}

/** A run tree's steps, and the ledger state they were built from (ComparedRun.version). */
interface TreeSteps {
  steps: RunStep[];
  version: string;
}

async function readTree(db: Db, runId: string, prices: PriceBook): Promise<TreeSteps | null> {
  const ledger = await readTreeLedger(db, runId, STEP_EVENTS);
  if (!ledger) return null;
  const runs = new Map<string, LedgerRun>(
    ledger.runs.map((r) => [r.id, { runId: r.id, parentRunId: r.id === runId ? null : r.parentRunId, agentName: r.agentName, startedAt: r.startedAt.toISOString(), events: [], spans: [], assistantMessages: [] }]),
  );
  for (const { runId: id, event } of ledger.events) runs.get(id)?.events.push(event);
  for (const s of ledger.spans) runs.get(s.runId)?.spans.push({ id: s.spanId, kind: s.kind, status: s.status, callId: s.callId, replayed: s.replayed });
  for (const m of ledger.assistantMessages) runs.get(m.runId)?.assistantMessages.push(m.message);
  // A step's duration is its span's, as the trace shows it (lib/runs/step-duration.ts), not the time the event
  // recorded (older runs' model calls recorded the provider's own time: 4 ms beside the trace's 24 ms).
  const durations = new Map(ledger.spans.map((s) => [`${s.runId}\u0000${s.spanId}`, stepDurationMs(s)]));
  const steps = treeSteps([...runs.values()], runId, prices);
  for (const step of steps) if (step.spanId !== null) step.latencyMs = durations.get(`${step.runId}\u0000${step.spanId}`) ?? step.latencyMs;
  // Steps and their order follow from the tree's runs and its events alone, and events are only ever
  // appended: their count says whether step indices handed out earlier still hold.
  return { steps: orderParallel(steps), version: `${ledger.runs.length}.${ledger.events.length}` };
}

function comparedRun(row: RunRow, graphVersion: VersionNumbers, tree: TreeSteps, steps: (StepView | null)[]): ComparedRun {
  const totals = stepTotals(tree.steps);
  return {
    runId: row.id,
    agentName: row.agentName,
    graphName: row.graphName,
    graphVersion,
    task: row.task,
    status: row.status as RunStatus,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    // The run's duration as its header says it (lib/runs/run-time.ts): start → end; null while it works.
    totals: { ...totals, latencyMs: row.endedAt ? runDurationMs(runTimes({ startedAt: row.startedAt.toISOString(), endedAt: row.endedAt.toISOString() }), 0) : null },
    steps,
    version: tree.version,
    replayedSteps: tree.steps.reduce((n, s) => n + (s.replayed ? 1 : 0), 0),
  };
}

/**
 * Compares run `a` with run `b` (both with their sub-runs). 404 naming the
 * missing run; 422 when they are of different graphs (a diff of unrelated
 * agents would align nothing) or hold more than MAX_COMPARED_ROWS rows together.
 */
export async function compareRuns(db: Db, a: string, b: string, prices: PriceBook): Promise<RunComparison> {
  const [rowA, rowB] = await Promise.all([readRunRow(db, a), readRunRow(db, b)]);
  if (!rowA) throw new ComparedRunNotFound("a", a);
  if (!rowB) throw new ComparedRunNotFound("b", b);
  if (graphOf(rowA) !== graphOf(rowB)) throw new AppError("validation_failed", 422, `Runs ${a} and ${b} are of different graphs (${graphOf(rowA)}, ${graphOf(rowB)})`);
  await checkComparedSize(db, [
    { which: "a", runId: a },
    { which: "b", runId: b },
  ]);
  // A run deleted since its row was read compares as a run without steps.
  const none: TreeSteps = { steps: [], version: "0.0" };
  const [treeA, treeB, versions] = await Promise.all([readTree(db, a, prices).then((t) => t ?? none), readTree(db, b, prices).then((t) => t ?? none), readVersionNumbers(db, [rowA, rowB])]);
  const versionOf = (row: RunRow): VersionNumbers => versions.get(row.id) ?? { version: null, variantOf: null };
  const alignment = alignSteps(treeA.steps, treeB.steps);
  // The rows are all sent; the steps only around where the page opens (wire.ts).
  const inline = inlineRows(alignment.rows, alignment.firstDivergence ?? 0, alignment.a, alignment.b);
  const runA = comparedRun(rowA, versionOf(rowA), treeA, sparseSteps(alignment.a, alignment.rows, inline, "a"));
  const runB = comparedRun(rowB, versionOf(rowB), treeB, sparseSteps(alignment.b, alignment.rows, inline, "b"));
  const tokens = (r: ComparedRun) => r.totals.tokens.inputTokens + r.totals.tokens.outputTokens;
  return {
    a: runA,
    b: runB,
    rows: alignment.rows,
    firstDivergence: alignment.firstDivergence,
    counts: alignment.counts,
    delta: { tokens: tokens(runB) - tokens(runA), cost: deltaOf(runA.totals.cost, runB.totals.cost), latencyMs: deltaOf(runA.totals.latencyMs, runB.totals.latencyMs) },
  };
}

/** Run `runId`'s steps [from, to) in the order a comparison indexes them. 404 for an unknown run; 409 when `version` is given and the run has moved on since. */
export async function compareSteps(db: Db, query: CompareStepsQuery, prices: PriceBook): Promise<CompareStepsPage> {
  await checkComparedSize(db, [{ which: "run", runId: query.run }]);
  const tree = await readTree(db, query.run, prices);
  if (!tree) throw new RunNotFound(query.run);
  if (query.version !== undefined && query.version !== tree.version) {
    throw new AppError("conflict", 409, `Run ${query.run} has taken more steps since the comparison was made (version ${query.version}, now ${tree.version}); reload the comparison`);
  }
  return { runId: query.run, version: tree.version, total: tree.steps.length, from: query.from, steps: tree.steps.slice(query.from, query.to).map(stepView) };
}

/** How many forks and recent runs "Compare with…" offers. */
const CANDIDATES = 20;

const candidate = (row: CompareCandidateRow): CompareCandidate => ({ runId: row.id, status: row.status as RunStatus, task: row.task, startedAt: row.startedAt.toISOString(), forkOfRunId: row.forkOfRunId });

/** The runs `runId` can be compared with: its forks and origin first, then recent runs of its graph. 404 for an unknown run. */
export async function compareCandidates(db: Db, runId: string): Promise<CompareCandidates> {
  const found = await readCompareCandidates(db, runId, CANDIDATES);
  if (!found) throw new RunNotFound(runId);
  return { graphName: found.graphName, related: found.related.map(candidate), recent: found.recent.map(candidate) };
}
