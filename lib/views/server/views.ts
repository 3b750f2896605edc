import "server-only";
// Saved views, one function per change, each audited in its own transaction.
// A view belongs to the user who saved it: another user's id reads as unknown
// (404), so ids reveal nothing.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { getDb } from "../../db/server/db";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { AppError, ConflictError } from "../../errors";
import { retryReason } from "../../db/contention";
import { BUILT_IN_VIEWS, savedViewFiltersSchema, VIEWS_PER_USER, type createViewSchema, type deleteViewSchema, type SavedView, type updateViewSchema } from "../schemas";

interface Owner {
  id: string;
}

class ViewNotFound extends AppError {
  constructor(id: string) {
    super("not_found", 404, `There is no saved view ${id}`);
  }
}

function toView(row: { id: string; name: string; filters: string; updatedAt: Date }): SavedView {
  // Filters were validated when saved; a row that no longer parses (an older filter removed) shows as no filter.
  const parsed = savedViewFiltersSchema.safeParse(JSON.parse(row.filters));
  return { id: row.id, name: row.name, filters: parsed.success ? parsed.data : {}, builtIn: false, description: null, updatedAt: row.updatedAt.toISOString() };
}

/** A second view of the same name is a 409, whether found first or raced in. */
async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (retryReason(error) === "unique_violation") throw new ConflictError(`You already have a view named "${name}"`);
    throw error;
  }
}

/** The built-in views, then the user's own by name. */
export async function listViews(owner: Owner, db: Db = getDb()): Promise<SavedView[]> {
  const rows = await db.savedView.findMany({ where: { userId: owner.id }, orderBy: { name: "asc" } });
  return [...BUILT_IN_VIEWS, ...rows.map(toView)];
}

export async function createView(owner: Owner, input: z.output<typeof createViewSchema>, db: Db = getDb()): Promise<SavedView> {
  return uniqueName(input.name, () =>
    writeTransaction(db, async (tx) => {
      if ((await tx.savedView.count({ where: { userId: owner.id } })) >= VIEWS_PER_USER) throw new ConflictError(`You have ${VIEWS_PER_USER} saved views; delete one first`);
      const row = await tx.savedView.create({ data: { id: `view_${randomUUID()}`, userId: owner.id, name: input.name, filters: JSON.stringify(input.filters) } });
      await appendAuditInTransaction(tx, { actorId: owner.id, action: "view.created", target: row.id, details: { name: row.name, filters: input.filters } });
      return toView(row);
    }),
  );
}

export async function updateView(owner: Owner, input: z.output<typeof updateViewSchema>, db: Db = getDb()): Promise<SavedView> {
  return uniqueName(input.name ?? "", () =>
    writeTransaction(db, async (tx) => {
      const found = await tx.savedView.findFirst({ where: { id: input.id, userId: owner.id } });
      if (!found) throw new ViewNotFound(input.id);
      const row = await tx.savedView.update({
        where: { id: found.id },
        data: { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.filters !== undefined ? { filters: JSON.stringify(input.filters) } : {}) },
      });
      await appendAuditInTransaction(tx, { actorId: owner.id, action: "view.updated", target: row.id, details: { name: row.name, previousName: found.name, filters: JSON.parse(row.filters) as unknown } });
      return toView(row);
    }),
  );
}

export async function deleteView(owner: Owner, input: z.output<typeof deleteViewSchema>, db: Db = getDb()): Promise<{ id: string; deleted: true }> {
  return writeTransaction(db, async (tx) => {
    const found = await tx.savedView.findFirst({ where: { id: input.id, userId: owner.id } });
    if (!found) throw new ViewNotFound(input.id);
    await tx.savedView.delete({ where: { id: found.id } });
    await appendAuditInTransaction(tx, { actorId: owner.id, action: "view.deleted", target: found.id, details: { name: found.name } });
    return { id: found.id, deleted: true as const };
  });
}
