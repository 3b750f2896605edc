// Reading and writing the workspace policy (one row, id "workspace"). No
// "server-only" here: the engine client reads the policy when a run starts,
// and scripts and tests use that client outside Next.
import type { Db } from "../db/prisma";
import { writeTransaction } from "../db/transactions";
import { appendAuditInTransaction } from "../audit/write";
import { DEFAULT_WORKSPACE_POLICY, workspacePolicySchema, type WorkspacePolicy, type WorkspacePolicyInput, type WorkspacePolicyView } from "./schemas";

export const WORKSPACE_POLICY_ID = "workspace";

/** A stored policy that no longer parses (hand-edited row, older format) falls back to the strict default, never to no gate. */
function parseStored(data: string): WorkspacePolicy {
  try {
    const parsed = workspacePolicySchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : DEFAULT_WORKSPACE_POLICY;
  } catch {
    return DEFAULT_WORKSPACE_POLICY;
  }
}

/** The workspace policy and its revision (the default, revision 0, when no admin ever saved one). */
export async function readWorkspacePolicy(db: Db): Promise<WorkspacePolicyView> {
  const row = await db.workspacePolicy.findUnique({ where: { id: WORKSPACE_POLICY_ID } });
  if (!row) return { policy: DEFAULT_WORKSPACE_POLICY, revision: 0, updatedAt: null, updatedBy: null };
  return { policy: parseStored(row.data), revision: row.revision, updatedAt: row.updatedAt.toISOString(), updatedBy: row.updatedById };
}

/** Replaces the policy (revision + 1) and audits before and after in the same transaction. Access is checked by the caller. */
export async function writeWorkspacePolicy(db: Db, actorId: string | null, input: WorkspacePolicyInput): Promise<WorkspacePolicyView> {
  const policy = workspacePolicySchema.parse(input);
  return writeTransaction(db, async (tx) => {
    const existing = await tx.workspacePolicy.findUnique({ where: { id: WORKSPACE_POLICY_ID } });
    const before = existing ? parseStored(existing.data) : DEFAULT_WORKSPACE_POLICY;
    const data = JSON.stringify(policy);
    const row = existing
      ? await tx.workspacePolicy.update({ where: { id: WORKSPACE_POLICY_ID }, data: { data, revision: existing.revision + 1, updatedById: actorId } })
      : await tx.workspacePolicy.create({ data: { id: WORKSPACE_POLICY_ID, data, revision: 1, updatedById: actorId } });
    await appendAuditInTransaction(tx, { actorId, action: "policy.updated", target: WORKSPACE_POLICY_ID, details: { revision: row.revision, before, after: policy } });
    return { policy, revision: row.revision, updatedAt: row.updatedAt.toISOString(), updatedBy: actorId };
  });
}

/** Writes `policy` only when no row exists yet (the seed's default; an admin's policy is never overwritten). */
export async function ensureWorkspacePolicy(db: Db, policy: WorkspacePolicy): Promise<void> {
  const existing = await db.workspacePolicy.findUnique({ where: { id: WORKSPACE_POLICY_ID }, select: { id: true } });
  if (existing) return;
  await writeWorkspacePolicy(db, null, policy);
}
