import "server-only";
// Labels on a graph's versions: read, set (with a split), remove, protect. A
// change to a protected label is not applied: it becomes a request in the inbox
// (requests.ts) that an approver or admin other than the requester decides.
// Every change is audited with the versions it moved from and to.
import type { Db } from "../../db/prisma";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { ForbiddenError } from "../../errors";
import { can } from "../../access/roles";
import type { SessionUser } from "../../auth/server/session";
import type { LabelChange, LabelChangeResult, LabelList, LabelView } from "../schemas";
import { isProtectedLabel, protectedNames, WORKSPACE_SCOPE } from "../protection";
import { splitFromRow } from "../split";
import { agentIdOf, applyLabelChange, readProtection, requireVersions, type LabelRow } from "./apply";
import { createLabelRequest } from "./requests";

function viewOf(row: LabelRow, isProtected: boolean, pendingRequestId: string | null): LabelView {
  return { name: row.name, version: row.version, split: splitFromRow(row), protected: isProtected, updatedAt: row.updatedAt.toISOString(), pendingRequestId };
}

/** A graph's labels, each with its split, whether it is protected and its pending request. */
export async function listLabels(db: Db, graph: string): Promise<LabelList> {
  const agentId = await agentIdOf(db, graph);
  const [rows, protection, pending] = await Promise.all([
    db.agentLabel.findMany({ where: { agentId }, orderBy: { name: "asc" } }),
    readProtection(db, graph),
    db.labelMoveRequest.findMany({ where: { agentId, status: "pending" }, select: { id: true, label: true } }),
  ]);
  const pendingOf = new Map(pending.map((p) => [p.label, p.id]));
  const labels = rows.map((row) => viewOf(row, isProtectedLabel(protection, graph, row.name), pendingOf.get(row.name) ?? null));
  return { graph, labels, protectedNames: protectedNames(protection, graph) };
}

/** Sets or removes a label: at once when it is not protected, else as a request in the inbox. */
export async function changeLabel(db: Db, graph: string, label: string, change: LabelChange, note: string, actor: SessionUser): Promise<LabelChangeResult> {
  const agentId = await agentIdOf(db, graph);
  await requireVersions(db, agentId, graph, change);
  const protection = await readProtection(db, graph);
  if (isProtectedLabel(protection, graph, label)) return { status: "requested", request: await createLabelRequest(db, { agentId, graph, label }, change, note, actor) };
  const row = await writeTransaction(db, (tx) => applyLabelChange(tx, { agentId, graph, label }, change, actor.id));
  return { status: "applied", label: row ? viewOf(row, false, null) : null };
}

/** An admin says whether a label name is protected on one graph, or ("*") across the workspace. Audited with the word it replaced. */
export async function setLabelProtection(db: Db, scope: string, label: string, isProtected: boolean, actor: SessionUser): Promise<{ graph: string; label: string; protected: boolean }> {
  if (!can(actor.role, "policy:manage")) throw new ForbiddenError("Only an admin says which labels are protected");
  if (scope !== WORKSPACE_SCOPE) await agentIdOf(db, scope);
  await writeTransaction(db, async (tx) => {
    const before = await tx.protectedLabel.findUnique({ where: { graph_name: { graph: scope, name: label } } });
    await tx.protectedLabel.upsert({ where: { graph_name: { graph: scope, name: label } }, create: { graph: scope, name: label, protected: isProtected, updatedById: actor.id }, update: { protected: isProtected, updatedById: actor.id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "label.protection_set", target: `${scope}/${label}`, details: { graph: scope, label, protected: isProtected, previous: before?.protected ?? null } });
  });
  return { graph: scope, label, protected: isProtected };
}

