// Items from what the studio recorded: a finished run tree (through the run
// ledger's reads), or a decided approval (an approved or edited call becomes an
// expected call, a rejection a negative example with the reason). History that
// holds a step someone wrote is not a recording: neither source takes it.
import type { Db } from "../../db/prisma";
import { AppError, ConflictError, ValidationError } from "../../errors";
import { parseOutputData, readDecidedApprovals, readEventsOfTypes, readMessages, readRunRow, readRunRows, readRunTree, type ApprovalRecordRow } from "../../run-ledger/read";
import { readRunStarts } from "../../run-ledger/changes";
import { readTreeEditMarks, type TreeEditMarks } from "../../run-ledger/edits";
import { BUDGET_APPROVAL_TOOL } from "../../contract/budget-approval";
import { PLAN_APPROVAL_TOOL } from "../../contract/plan-approval";
import { editedEventStep, editedHistoryRefusal, itemFromRun, ITEM_EVENT_TYPES, parseJsonObject, type RecordedApproval } from "../from-run";
import { parseForkEdit } from "../../forks/schemas";
import type { ItemDraft } from "../import-parse";
import type { DecidedApproval, LeftOutApproval } from "../schemas";

/** A run tree's events read for an item, per run at most (a longer run keeps its first ones). */
const MAX_EVENTS_PER_RUN = 20_000;
const ENDED = new Set(["completed", "failed", "cancelled"]);
/** Grants of tokens and plan approvals are not tool calls: nothing to expect of them. */
const NOT_TOOL_CALLS = [BUDGET_APPROVAL_TOOL, PLAN_APPROVAL_TOOL];
/** Decided approvals listed on one page of "Add from approvals". */
export const APPROVALS_PAGE_SIZE = 50;
/** A graph filter looks at approvals of this graph's newest root runs, at most. */
const GRAPH_FILTER_RUNS = 5_000;

class RunNotFound extends AppError {
  constructor(runId: string) {
    super("not_found", 404, `There is no run ${runId}`);
  }
}

class ApprovalNotFound extends AppError {
  constructor(approvalId: string) {
    super("not_found", 404, `There is no decided approval ${approvalId}`);
  }
}

/**
 * The step someone wrote in a run tree, as a refusal names it: the fork's own edit (its root row names it,
 * an inherited one included), else the earliest model output or tool result the engine took from an edited
 * tape entry in any run of the tree (a taped run that is no fork: an experiment playing an imported tape).
 * The whole tree is refused either way: the written step shaped everything after it, sub-runs included.
 */
function editOfTree(marks: TreeEditMarks | undefined, asked: string): { step: string; by: string; at: string } | null {
  if (!marks) return null;
  const fork = parseForkEdit(marks.forkEdit);
  if (fork) return fork;
  if (marks.edited) return { step: editedEventStep(marks.edited.event, marks.edited.runId, asked), ...marks.edited.event.edited };
  return null;
}

function decisionOf(row: ApprovalRecordRow): RecordedApproval {
  return { status: row.status, reason: row.reason, editedArguments: row.editedArguments ? parseJsonObject(row.editedArguments) : null, decidedBy: row.decidedByEmail };
}

/** The item one finished run makes (its subtree, when it is a sub-run). */
export async function itemFromRecordedRun(db: Db, runId: string): Promise<ItemDraft> {
  const root = await readRunRow(db, runId);
  if (!root) throw new RunNotFound(runId);
  if (!ENDED.has(root.status)) throw new ConflictError(`Run ${runId} is ${root.status}; add it once it has finished`);
  // An edited model output is the answer itself, an edited tool result what the model acted on.
  const edit = editOfTree((await readTreeEditMarks(db, [root.rootRunId]))[0], runId);
  if (edit) throw editedHistoryRefusal(runId, edit);
  const tree = await readRunTree(db, root.rootRunId);
  // The run and the runs below it (a selected sub-run brings its own subtree only).
  const below = new Set([root.id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const run of tree) {
      if (run.parentRunId && below.has(run.parentRunId) && !below.has(run.id)) {
        below.add(run.id);
        grew = true;
      }
    }
  }
  const runIds = [...below];
  const [runs, firstMessages, approvals] = await Promise.all([
    Promise.all(runIds.map(async (id) => ({ runId: id, events: await readEventsOfTypes(db, id, ITEM_EVENT_TYPES, { take: MAX_EVENTS_PER_RUN }) }))),
    readMessages(db, root.id, 2),
    readDecidedApprovals(db, { runIds, excludeTools: NOT_TOOL_CALLS }, { take: 10_000 }),
  ]);
  const first = firstMessages.find((m) => m.role === "user");
  return itemFromRun({
    root: { id: root.id, task: root.task, context: root.context, status: root.status, output: root.output, outputData: root.outputData === null ? undefined : parseOutputData(root.outputData), planOutcome: root.planOutcome },
    images: first?.role === "user" ? (first.images ?? []) : [],
    runs,
    decisions: new Map(approvals.map((a) => [`${a.runId}:${a.toolCallId}`, decisionOf(a)])),
  });
}

/** The item a decided approval makes: the run tree's task and context, the call as expected or as a negative example. */
function itemFromApproval(row: ApprovalRecordRow, root: { task: string; context: string }): ItemDraft {
  const proposed = parseJsonObject(row.arguments);
  const edited = row.editedArguments ? parseJsonObject(row.editedArguments) : null;
  const approved = row.status === "approved";
  return {
    input: { task: root.task, context: parseJsonObject(root.context) },
    expected: approved ? { trajectory: [{ tool: row.toolName, arguments: edited ?? proposed }] } : { negative: [{ tool: row.toolName, arguments: proposed, reason: row.reason ?? (row.status === "expired" ? "expired without a decision" : "rejected") }] },
    tape: [],
    tags: [approved ? (edited ? "edited" : "approved") : row.status],
    source: { runId: row.rootRunId, approvalId: row.id },
  };
}

/**
 * The items decided approvals make, in the order asked. A call decided in a tree holding a step someone
 * wrote (a fork with an edit, or a taped run that played an edited entry) is left out, with why: the call
 * was proposed after the written step, so it is no recorded behaviour. Nothing left: refused (422).
 */
export async function itemsFromApprovals(db: Db, approvalIds: readonly string[]): Promise<{ items: ItemDraft[]; leftOut: LeftOutApproval[] }> {
  const ids = [...new Set(approvalIds)];
  const rows = await readDecidedApprovals(db, { ids, excludeTools: NOT_TOOL_CALLS }, { take: ids.length });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing) throw new ApprovalNotFound(missing);
  const marks = new Map((await readTreeEditMarks(db, rows.map((r) => r.rootRunId))).map((m) => [m.rootRunId, m]));
  const kept: ApprovalRecordRow[] = [];
  const leftOut: LeftOutApproval[] = [];
  for (const id of ids) {
    const row = byId.get(id)!;
    const edit = editOfTree(marks.get(row.rootRunId), row.runId);
    if (edit) leftOut.push({ approvalId: id, runId: row.runId, reason: `decided in run ${row.runId}, whose run tree holds an edited step (${edit.step}, edited by ${edit.by} at ${edit.at}), not a recording` });
    else kept.push(row);
  }
  if (kept.length === 0) {
    const [first] = leftOut;
    const more = leftOut.length > 1 ? ` (and ${leftOut.length - 1} more, each listed)` : "";
    throw new ValidationError(
      leftOut.map((l) => ({ path: "approvalIds", message: `approval ${l.approvalId} was ${l.reason}` })),
      `Nothing was added: approval ${first!.approvalId} was ${first!.reason}, so it cannot become a dataset item${more}; choose approvals decided in recorded runs`,
    );
  }
  const roots = new Map<string, { task: string; context: string }>();
  for (const rootRunId of new Set(kept.map((r) => r.rootRunId))) {
    const run = await readRunRow(db, rootRunId);
    roots.set(rootRunId, { task: run?.task ?? "", context: run?.context ?? "{}" });
  }
  return { items: kept.map((row) => itemFromApproval(row, roots.get(row.rootRunId) ?? { task: "", context: "{}" })), leftOut };
}

/** Decided tool-call approvals, newest first, optionally of one tool or one saved graph's runs. */
export async function listDecidedApprovals(db: Db, filter: { tool?: string; graphName?: string; page: number }): Promise<{ approvals: DecidedApproval[]; page: number; hasMore: boolean }> {
  let rootRunIds: string[] | undefined;
  if (filter.graphName) rootRunIds = (await readRunRows(db, { topLevel: true, graph: filter.graphName }, { take: GRAPH_FILTER_RUNS })).rows.map((r) => r.id);
  const rows = rootRunIds?.length === 0 ? [] : await readDecidedApprovals(db, { ...(filter.tool ? { tool: filter.tool } : {}), ...(rootRunIds ? { rootRunIds } : {}), excludeTools: NOT_TOOL_CALLS }, { skip: (filter.page - 1) * APPROVALS_PAGE_SIZE, take: APPROVALS_PAGE_SIZE + 1 });
  const page = rows.slice(0, APPROVALS_PAGE_SIZE);
  const starts = new Map((await readRunStarts(db, [...new Set(page.map((r) => r.rootRunId))])).map((s) => [s.id, s]));
  return {
    approvals: page.map((row) => ({
      approvalId: row.id,
      runId: row.runId,
      rootRunId: row.rootRunId,
      graphName: starts.get(row.rootRunId)?.graphName ?? null,
      tool: row.toolName,
      arguments: parseJsonObject(row.arguments),
      approved: row.status === "approved",
      editedArguments: row.editedArguments ? parseJsonObject(row.editedArguments) : null,
      reason: row.reason,
      decidedBy: row.decidedByEmail,
      decidedAt: row.decidedAt?.toISOString() ?? null,
      task: starts.get(row.rootRunId)?.task ?? "",
    })),
    page: filter.page,
    hasMore: rows.length > APPROVALS_PAGE_SIZE,
  };
}
