import "server-only";
// Requests to change a protected label: made by a builder, listed in the inbox
// with the graph's diff between the versions, decided by an approver or admin who
// is not the requester. An approval applies the change only if the label still
// stands where it stood when asked (else the request turns stale: ask again).
import type { Db } from "../../db/prisma";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { ConflictError, ForbiddenError } from "../../errors";
import { can } from "../../access/roles";
import type { SessionUser } from "../../auth/server/session";
import { readStoredGraph } from "../../agents/server/store";
import { diffGraphs } from "../../agents/graph-diff";
import { labelChangeSchema, type LabelChange, type LabelRequestStatus, type LabelRequestView } from "../schemas";
import { applyLabelChange, requireNoPendingRequest } from "./apply";
import { LabelRequestNotFound } from "../errors";

const requestId = () => `lmr_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

const requestInclude = { agent: { select: { id: true, name: true } } } as const;

interface RequestRow {
  id: string;
  agentId: string;
  label: string;
  fromVersion: number | null;
  change: string;
  note: string;
  status: string;
  requestedById: string;
  decidedById: string | null;
  decisionNote: string | null;
  createdAt: Date;
  decidedAt: Date | null;
  agent: { id: string; name: string };
}

/** The field changes from the label's version to the requested one (empty for a removal, a new label or the same version). */
async function diffOf(db: Db, agentId: string, graph: string, from: number | null, change: LabelChange): Promise<LabelRequestView["diff"]> {
  if (change.kind !== "set" || from === null || from === change.version) return [];
  const rows = await db.agentVersion.findMany({ where: { agentId, version: { in: [from, change.version] } }, select: { version: true, graph: true } });
  const before = rows.find((r) => r.version === from);
  const after = rows.find((r) => r.version === change.version);
  if (!before || !after) return [];
  return diffGraphs(readStoredGraph(before.graph, `${graph} v${from}`), readStoredGraph(after.graph, `${graph} v${change.version}`)).fields;
}

async function viewsOf(db: Db, rows: readonly RequestRow[]): Promise<LabelRequestView[]> {
  const userIds = [...new Set(rows.flatMap((r) => [r.requestedById, ...(r.decidedById ? [r.decidedById] : [])]))];
  const users = new Map((await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } })).map((u) => [u.id, u]));
  const person = (id: string) => users.get(id) ?? { id, email: "" };
  return Promise.all(
    rows.map(async (row) => {
      const change = labelChangeSchema.parse(JSON.parse(row.change));
      return {
        id: row.id,
        graph: row.agent.name,
        label: row.label,
        fromVersion: row.fromVersion,
        change,
        note: row.note,
        status: row.status as LabelRequestStatus,
        requestedBy: person(row.requestedById),
        requestedAt: row.createdAt.toISOString(),
        decidedBy: row.decidedById ? person(row.decidedById) : null,
        decidedAt: row.decidedAt?.toISOString() ?? null,
        decisionNote: row.decisionNote,
        diff: await diffOf(db, row.agentId, row.agent.name, row.fromVersion, change),
      };
    }),
  );
}

/** Records a request (audited "label.move_requested"); one pending request per label at a time. */
export async function createLabelRequest(db: Db, target: { agentId: string; graph: string; label: string }, change: LabelChange, note: string, actor: SessionUser): Promise<LabelRequestView> {
  const row = await writeTransaction(db, async (tx) => {
    await requireNoPendingRequest(tx, target.agentId, target.graph, target.label);
    const current = await tx.agentLabel.findUnique({ where: { agentId_name: { agentId: target.agentId, name: target.label } }, select: { version: true } });
    if (change.kind === "remove" && !current) throw new ConflictError(`The graph "${target.graph}" has no label "${target.label}" to remove`);
    const created = await tx.labelMoveRequest.create({
      data: { id: requestId(), agentId: target.agentId, label: target.label, fromVersion: current?.version ?? null, change: JSON.stringify(change), note, requestedById: actor.id },
      include: requestInclude,
    });
    await appendAuditInTransaction(tx, {
      actorId: actor.id,
      action: "label.move_requested",
      target: created.id,
      details: { graph: target.graph, label: target.label, fromVersion: created.fromVersion, toVersion: change.kind === "set" ? change.version : null, ...(change.kind === "set" && change.split ? { split: { version: change.split.version, percent: change.split.percent } } : {}) },
    });
    return created;
  });
  const [view] = await viewsOf(db, [row]);
  if (!view) throw new LabelRequestNotFound(row.id);
  return view;
}

/** The requests of a status (pending by default), oldest first, optionally of one graph. */
export async function listLabelRequests(db: Db, filter: { graph?: string; status: LabelRequestStatus }): Promise<{ requests: LabelRequestView[] }> {
  const rows = await db.labelMoveRequest.findMany({
    where: { status: filter.status, ...(filter.graph ? { agent: { name: filter.graph } } : {}) },
    orderBy: { createdAt: filter.status === "pending" ? "asc" : "desc" },
    take: 200,
    include: requestInclude,
  });
  return { requests: await viewsOf(db, rows) };
}

/**
 * Decides a pending request. Approvers and admins only, never the requester; an approval applies the
 * change (audited "label.set"/"label.removed" with the request id) unless the label moved since it was
 * asked, which turns the request stale (409). Audited "label.request_approved" or "label.request_rejected".
 */
export async function decideLabelRequest(db: Db, id: string, decision: "approve" | "reject", note: string | undefined, actor: SessionUser): Promise<LabelRequestView> {
  if (!can(actor.role, "approvals:decide")) throw new ForbiddenError("Only an approver or an admin decides label requests");
  const outcome = await writeTransaction(db, async (tx) => {
    const row = await tx.labelMoveRequest.findUnique({ where: { id }, include: requestInclude });
    if (!row) throw new LabelRequestNotFound(id);
    if (row.status !== "pending") return { stale: false, error: new ConflictError(`Request ${id} is already ${row.status}`) };
    if (row.requestedById === actor.id) throw new ForbiddenError(`You requested this change of "${row.label}"; another approver or admin decides it`);
    const decided = { decidedById: actor.id, decidedAt: new Date(), decisionNote: note ?? null };
    const graph = row.agent.name;
    if (decision === "reject") {
      await tx.labelMoveRequest.update({ where: { id }, data: { status: "rejected", ...decided } });
      await appendAuditInTransaction(tx, { actorId: actor.id, action: "label.request_rejected", target: id, details: { graph, label: row.label, requestedById: row.requestedById } });
      return { stale: false, error: null };
    }
    const current = await tx.agentLabel.findUnique({ where: { agentId_name: { agentId: row.agentId, name: row.label } }, select: { version: true } });
    if ((current?.version ?? null) !== row.fromVersion) {
      await tx.labelMoveRequest.update({ where: { id }, data: { status: "stale", ...decided } });
      return { stale: true, error: new ConflictError(`"${row.label}" moved since the request (it was ${row.fromVersion === null ? "unset" : `v${row.fromVersion}`}, it is ${current ? `v${current.version}` : "unset"}); nothing was changed — ask again`) };
    }
    const change = labelChangeSchema.parse(JSON.parse(row.change));
    await applyLabelChange(tx, { agentId: row.agentId, graph, label: row.label }, change, actor.id, { requestId: id, requestedById: row.requestedById });
    await tx.labelMoveRequest.update({ where: { id }, data: { status: "approved", ...decided } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "label.request_approved", target: id, details: { graph, label: row.label, requestedById: row.requestedById, fromVersion: row.fromVersion, toVersion: change.kind === "set" ? change.version : null } });
    return { stale: false, error: null };
  });
  // A stale request is recorded as such (committed above) before the refusal.
  if (outcome.error) throw outcome.error;
  return requestView(db, id);
}

/** The requester withdraws a pending request (audited "label.request_cancelled"). */
export async function cancelLabelRequest(db: Db, id: string, actor: SessionUser): Promise<LabelRequestView> {
  await writeTransaction(db, async (tx) => {
    const row = await tx.labelMoveRequest.findUnique({ where: { id }, include: requestInclude });
    if (!row) throw new LabelRequestNotFound(id);
    if (row.requestedById !== actor.id) throw new ForbiddenError("Only the requester withdraws a label request");
    if (row.status !== "pending") throw new ConflictError(`Request ${id} is already ${row.status}`);
    await tx.labelMoveRequest.update({ where: { id }, data: { status: "cancelled", decidedById: actor.id, decidedAt: new Date() } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "label.request_cancelled", target: id, details: { graph: row.agent.name, label: row.label } });
  });
  return requestView(db, id);
}

async function requestView(db: Db, id: string): Promise<LabelRequestView> {
  const row = await db.labelMoveRequest.findUnique({ where: { id }, include: requestInclude });
  if (!row) throw new LabelRequestNotFound(id);
  const [view] = await viewsOf(db, [row]);
  if (!view) throw new LabelRequestNotFound(id);
  return view;
}
