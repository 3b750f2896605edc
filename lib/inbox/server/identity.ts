import "server-only";
// What tells two identical waiting calls apart: the asking run's graph and
// version, its task, who started its run tree — and who already decided in
// that tree (the inbox's "mine" filter). A call in a fork (or a sub-run of
// one) carries the origin's task, so it also says what it is a fork of, at
// which step, and which steps someone wrote instead of recorded; a fork with
// an edited prompt or model is named as an unsaved variant, never as the
// saved version. Read from the run ledger in a few batched queries per
// refresh, whatever the number of approvals.
import type { Db } from "../../db/prisma";
import type { ApprovalRequest } from "../../contract/types";
import type { ForkIdentity, RunIdentity, RunStarter } from "../schemas";
import { firstLine } from "../identity";
import { readRunRow, type RunRow } from "../../run-ledger/read";
import { readForkStepNames } from "../../run-ledger/forks";
import { readVersionNumbers } from "../../run-ledger/version-refs";
import { parseForkEdit } from "../../forks/schemas";

export interface ApprovalIdentities {
  identity: Map<string, RunIdentity>;
  /** Root run id → emails of those who decided an approval in that tree. */
  decidedBefore: Map<string, string[]>;
}

/** The fork a tree's root row records, with its step's name when known; null for a tree that is no fork. */
function forkOf(root: RunRow | undefined, stepNames: ReadonlyMap<string, string>): ForkIdentity | null {
  if (!root?.forkOfRunId) return null;
  const edit = parseForkEdit(root.forkEdit);
  return {
    originRunId: root.forkOfRunId,
    spanId: root.forkSpanId,
    step: root.forkSpanId ? (stepNames.get(`${root.forkOfRunId}/${root.forkSpanId}`) ?? null) : null,
    edits: edit ? [{ step: edit.step, kind: edit.kind, by: edit.by, at: edit.at, inherited: edit.inherited === true }] : [],
  };
}

/** Graph, version, task, starter and fork per asking run; deciders per run tree. */
export async function readIdentities(db: Db, approvals: ApprovalRequest[]): Promise<ApprovalIdentities> {
  const runIds = [...new Set(approvals.flatMap((a) => [a.runId, a.rootRunId]))];
  const rootIds = [...new Set(approvals.map((a) => a.rootRunId))];
  const [rows, decisions] = await Promise.all([
    // One read per run through the ledger's reader: the inbox lists a handful of waiting runs, each row by its key.
    Promise.all(runIds.map((id) => readRunRow(db, id))),
    db.approvalRecord.findMany({ where: { rootRunId: { in: rootIds }, decidedByEmail: { not: null } }, select: { rootRunId: true, decidedByEmail: true } }),
  ]);
  const byId = new Map<string, RunRow>(rows.filter((r) => r !== null).map((r) => [r.id, r]));
  const known = [...byId.values()];
  const emails = [...new Set(known.map((r) => r.startedBy).filter((e): e is string => e !== null))];
  // Only a tree's root records its fork: the step each fork was made at, named from the origin's spans.
  const forkSteps = known.filter((r) => r.forkOfRunId && r.forkSpanId).map((r) => ({ runId: r.forkOfRunId!, spanId: r.forkSpanId! }));
  const [versions, users, stepNames] = await Promise.all([
    readVersionNumbers(db, known),
    emails.length ? db.user.findMany({ where: { email: { in: emails } }, select: { email: true, name: true } }) : [],
    readForkStepNames(db, forkSteps),
  ]);
  const nameOf = new Map(users.map((u) => [u.email, u.name]));

  const identity = new Map<string, RunIdentity>();
  for (const approval of approvals) {
    const own = byId.get(approval.runId);
    const root = byId.get(approval.rootRunId);
    // A sub-run may not carry the graph itself; its root does. The starter is the root's.
    const graphRow = own?.graphName ? own : root;
    const email = root?.startedBy ?? own?.startedBy ?? approval.requestedBy ?? null;
    const startedBy: RunStarter | null = email ? { email, name: nameOf.get(email) ?? null } : null;
    const numbers = graphRow ? versions.get(graphRow.id) : undefined;
    const fork = forkOf(root ?? own, stepNames);
    identity.set(approval.runId, {
      graphName: graphRow?.graphName ?? null,
      version: numbers?.version ?? null,
      ...(numbers && numbers.variantOf !== null ? { variantOf: numbers.variantOf } : {}),
      task: firstLine(own?.task ?? ""),
      startedBy,
      ...(fork ? { fork } : {}),
    });
  }

  const decidedBefore = new Map<string, string[]>();
  for (const d of decisions) {
    if (!d.decidedByEmail) continue;
    const list = decidedBefore.get(d.rootRunId) ?? [];
    if (!list.includes(d.decidedByEmail)) list.push(d.decidedByEmail);
    decidedBefore.set(d.rootRunId, list);
  }
  return { identity, decidedBefore };
}
