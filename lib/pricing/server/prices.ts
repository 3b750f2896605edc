import "server-only";
// The price table's operations, one each (schema, permission, act and audit),
// from which the admin page's actions, /api/prices and the client are built.
// Everyone signed in reads prices (what a run costs is no secret); admins set
// and remove them. An edit drops this process's cached book at once.
import { getDb } from "../../db/server/db";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { AppError } from "../../errors";
import { operation } from "../../http/server/operation";
import { listModelPricesSchema, removeModelPriceSchema, setModelPriceSchema, type ModelPriceEntry, type ModelPriceList, type SavedModelPrice } from "../schemas";
import { invalidatePriceBook, readPriceBook } from "./read-price-book";

/** Every model's prices: the base prices and the admins' rows, by model then time. */
export async function listModelPrices(): Promise<ModelPriceList> {
  const db = getDb();
  const [book, rows] = await Promise.all([readPriceBook(db), db.modelPrice.findMany({ select: { id: true, model: true, effectiveFrom: true, createdById: true } })]);
  const creators = await db.user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.createdById))] } }, select: { id: true, email: true } });
  const email = new Map(creators.map((u) => [u.id, u.email]));
  const rowAt = new Map(rows.map((r) => [`${r.model}\n${r.effectiveFrom.getTime()}`, r]));
  const entries: ModelPriceEntry[] = [];
  for (const model of Object.keys(book.models).sort()) {
    for (const { from, ...point } of book.models[model] ?? []) {
      const row = point.source === "admin" ? rowAt.get(`${model}\n${from}`) : undefined;
      entries.push({ ...point, id: row?.id ?? null, model, effectiveFrom: new Date(from).toISOString(), setBy: row ? (email.get(row.createdById) ?? "(deleted user)") : null });
    }
  }
  return { entries };
}

/** Everyone signed in: every model's prices and their history. */
export const listModelPricesOperation = operation({
  name: "list-model-prices",
  permission: "read",
  input: listModelPricesSchema,
  run: async () => listModelPrices(),
});

/** Admins only: the model costs this from `effectiveFrom` (default now) on; setting a price at the same time again replaces it. */
export const setModelPriceOperation = operation({
  name: "set-model-price",
  permission: "policy:manage",
  input: setModelPriceSchema,
  run: async ({ input, user }): Promise<SavedModelPrice> => {
    const db = getDb();
    const effectiveFrom = input.effectiveFrom ? new Date(input.effectiveFrom) : new Date();
    const rates = { input: input.input, output: input.output, cachedRead: input.cachedRead ?? null, cachedWrite: input.cachedWrite ?? null, reasoning: input.reasoning ?? null };
    const row = await writeTransaction(db, async (tx) => {
      const before = await tx.modelPrice.findUnique({ where: { model_effectiveFrom: { model: input.model, effectiveFrom } } });
      const saved = await tx.modelPrice.upsert({
        where: { model_effectiveFrom: { model: input.model, effectiveFrom } },
        create: { model: input.model, effectiveFrom, ...rates, createdById: user.id },
        update: { ...rates, createdById: user.id },
      });
      const replaced = before ? { input: before.input, output: before.output, cachedRead: before.cachedRead, cachedWrite: before.cachedWrite, reasoning: before.reasoning } : null;
      await appendAuditInTransaction(tx, { actorId: user.id, action: "price.set", target: input.model, details: { id: saved.id, effectiveFrom: effectiveFrom.toISOString(), ...rates, replaced } });
      return saved;
    });
    invalidatePriceBook(db);
    return { id: row.id, model: row.model, effectiveFrom: row.effectiveFrom.toISOString(), ...rates };
  },
});

/** Admins only: removes an admin's price (one set by mistake); the model's earlier price applies again from its time. */
export const removeModelPriceOperation = operation({
  name: "remove-model-price",
  permission: "policy:manage",
  input: removeModelPriceSchema,
  run: async ({ input, user }) => {
    const db = getDb();
    const removed = await writeTransaction(db, async (tx) => {
      const before = await tx.modelPrice.findUnique({ where: { id: input.id } });
      if (!before) return null;
      await tx.modelPrice.delete({ where: { id: input.id } });
      await appendAuditInTransaction(tx, {
        actorId: user.id,
        action: "price.removed",
        target: before.model,
        details: { id: before.id, effectiveFrom: before.effectiveFrom.toISOString(), input: before.input, output: before.output, cachedRead: before.cachedRead, cachedWrite: before.cachedWrite, reasoning: before.reasoning },
      });
      return before;
    });
    if (!removed) throw new AppError("not_found", 404, `No admin price has the id ${input.id}`);
    invalidatePriceBook(db);
    return { id: removed.id, model: removed.model };
  },
});
