import "server-only";
// What tells two identical waiting calls apart: the asking run's graph and
// version, its task, who started its run tree — and who already decided in
// that tree (the inbox's "mine" filter). Read from the run ledger in a few
// batched queries per refresh, whatever the number of approvals.
import type { Db } from "../../db/prisma";
import type { ApprovalRequest } from "../../contract/types";
import type { RunIdentity, RunStarter } from "../schemas";
import { firstLine } from "../identity";
import { readRunRow } from "../../run-ledger/read";

interface IdentityRow {
  id: string;
  graphName: string | null;
  agentVersionId: string | null;
  startedBy: string | null;
  task: string;
}

export interface ApprovalIdentities {
  identity: Map<string, RunIdentity>;
  /** Root run id → emails of those who decided an approval in that tree. */
  decidedBefore: Map<string, string[]>;
}

/** Graph, version, task and starter per asking run; deciders per run tree. */
export async function readIdentities(db: Db, approvals: ApprovalRequest[]): Promise<ApprovalIdentities> {
  const runIds = [...new Set(approvals.flatMap((a) => [a.runId, a.rootRunId]))];
  const rootIds = [...new Set(approvals.map((a) => a.rootRunId))];
  const [rows, decisions] = await Promise.all([
    // One read per run through the ledger's reader: the inbox lists a handful of waiting runs, each row by its key.
    Promise.all(runIds.map((id) => readRunRow(db, id))),
    db.approvalRecord.findMany({ where: { rootRunId: { in: rootIds }, decidedByEmail: { not: null } }, select: { rootRunId: true, decidedByEmail: true } }),
  ]);
  const byId = new Map<string, IdentityRow>(rows.filter((r) => r !== null).map((r) => [r.id, r]));
  const known = [...byId.values()];
  const versionIds = [...new Set(known.map((r) => r.agentVersionId).filter((v): v is string => v !== null))];
  const emails = [...new Set(known.map((r) => r.startedBy).filter((e): e is string => e !== null))];
  const [versions, users] = await Promise.all([
    versionIds.length ? db.agentVersion.findMany({ where: { id: { in: versionIds } }, select: { id: true, version: true } }) : [],
    emails.length ? db.user.findMany({ where: { email: { in: emails } }, select: { email: true, name: true } }) : [],
  ]);
  const versionOf = new Map(versions.map((v) => [v.id, v.version]));
  const nameOf = new Map(users.map((u) => [u.email, u.name]));

  const identity = new Map<string, RunIdentity>();
  for (const approval of approvals) {
    const own = byId.get(approval.runId);
    const root = byId.get(approval.rootRunId);
    // A sub-run may not carry the graph itself; its root does. The starter is the root's.
    const graphRow = own?.graphName ? own : root;
    const email = root?.startedBy ?? own?.startedBy ?? approval.requestedBy ?? null;
    const startedBy: RunStarter | null = email ? { email, name: nameOf.get(email) ?? null } : null;
    identity.set(approval.runId, {
      graphName: graphRow?.graphName ?? null,
      version: graphRow?.agentVersionId ? (versionOf.get(graphRow.agentVersionId) ?? null) : null,
      task: firstLine(own?.task ?? ""),
      startedBy,
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
