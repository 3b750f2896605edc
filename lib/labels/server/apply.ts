import "server-only";
// What a label change does once it may happen (directly, or on an approved
// request), and the checks both paths share.
import type { Db } from "../../db/prisma";
import type { DbTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { ConflictError, ValidationError } from "../../errors";
import { AgentNotFound } from "../../agents/errors";
import type { LabelChange, Split } from "../schemas";
import { WORKSPACE_SCOPE, type ProtectionRow } from "../protection";
import { splitFromRow, stickyText } from "../split";
import { LabelNotFound } from "../errors";

export type Reader = Db | DbTransaction;

export interface LabelRow {
  id: string;
  name: string;
  version: number;
  splitVersion: number | null;
  splitPercent: number;
  splitSticky: string | null;
  updatedAt: Date;
}

export async function agentIdOf(db: Reader, graph: string): Promise<string> {
  const agent = await db.agent.findUnique({ where: { name: graph }, select: { id: true } });
  if (!agent) throw new AgentNotFound(graph);
  return agent.id;
}

export function readProtection(db: Reader, graph: string): Promise<ProtectionRow[]> {
  return db.protectedLabel.findMany({ where: { graph: { in: [graph, WORKSPACE_SCOPE] } }, select: { graph: true, name: true, protected: true } });
}

/** The versions a change names must exist (drafts included: a label is a way to run one), and a split goes elsewhere than the label. */
export async function requireVersions(db: Reader, agentId: string, graph: string, change: LabelChange): Promise<void> {
  if (change.kind !== "set") return;
  const wanted = [change.version, ...(change.split ? [change.split.version] : [])];
  const found = new Set((await db.agentVersion.findMany({ where: { agentId, version: { in: wanted } }, select: { version: true } })).map((v) => v.version));
  if (!found.has(change.version)) throw new AgentNotFound(graph, change.version);
  if (change.split && !found.has(change.split.version)) throw new ValidationError([{ path: "split.version", message: `the graph has no version ${change.split.version}` }], `The saved agent "${graph}" has no version ${change.split.version}`);
  if (change.split && change.split.version === change.version) {
    throw new ValidationError([{ path: "split.version", message: "a split sends runs to another version than the label's own" }], `The split's version is the label's own (v${change.version})`);
  }
}

function splitDetails(split: Split | null): Record<string, unknown> | null {
  return split ? { version: split.version, percent: split.percent, sticky: stickyText(split) } : null;
}

/**
 * Applies a change inside a transaction and audits it ("label.set" or "label.removed", with the
 * version and split before and after, and the request that carried it when one did).
 */
export async function applyLabelChange(
  tx: DbTransaction,
  target: { agentId: string; graph: string; label: string },
  change: LabelChange,
  actorId: string,
  via: { requestId?: string; requestedById?: string } = {},
): Promise<LabelRow | null> {
  const before = await tx.agentLabel.findUnique({ where: { agentId_name: { agentId: target.agentId, name: target.label } } });
  const from = { fromVersion: before?.version ?? null, fromSplit: before ? splitDetails(splitFromRow(before)) : null };
  if (change.kind === "remove") {
    if (!before) throw new LabelNotFound(target.graph, target.label, (await tx.agentLabel.findMany({ where: { agentId: target.agentId }, select: { name: true } })).map((l) => l.name));
    await tx.agentLabel.delete({ where: { id: before.id } });
    await appendAuditInTransaction(tx, { actorId, action: "label.removed", target: `${target.graph}/${target.label}`, details: { graph: target.graph, label: target.label, ...from, toVersion: null, ...via } });
    return null;
  }
  const data = {
    version: change.version,
    splitVersion: change.split?.version ?? null,
    splitPercent: change.split?.percent ?? 0,
    splitSticky: change.split ? stickyText(change.split) : null,
    updatedById: actorId,
  };
  const row = before ? await tx.agentLabel.update({ where: { id: before.id }, data }) : await tx.agentLabel.create({ data: { agentId: target.agentId, name: target.label, ...data } });
  await appendAuditInTransaction(tx, {
    actorId,
    action: "label.set",
    target: `${target.graph}/${target.label}`,
    details: { graph: target.graph, label: target.label, ...from, toVersion: change.version, toSplit: splitDetails(change.split), ...via },
  });
  return row;
}

/** A conflict sentence when a pending request already stands on the label (one at a time, so approvals never race). */
export async function requireNoPendingRequest(db: Reader, agentId: string, graph: string, label: string): Promise<void> {
  const pending = await db.labelMoveRequest.findFirst({ where: { agentId, label, status: "pending" }, select: { id: true } });
  if (pending) throw new ConflictError(`Request ${pending.id} to change "${label}" on "${graph}" is waiting in the inbox; it is decided or withdrawn before another`);
}
