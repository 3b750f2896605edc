import "server-only";
// Feedback on runs and spans (the thumbs and named scores), one function per
// change, each audited in its own transaction. One row per user, target and key
// (the unique key; "" is the thumbs), so setting again changes it, and two users
// rating one run at once write two rows.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { getDb } from "../../db/server/db";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { AppError } from "../../errors";
import { RunNotFound } from "../../engine/errors";
import { readRunTreeStarter, readSpan } from "../../run-ledger/read";
import type { FeedbackFilter, FeedbackItem, FeedbackRating, FeedbackSet, listFeedbackSchema, removeFeedbackSchema, setFeedbackSchema } from "../schemas";

interface Actor {
  id: string;
}

/** The run's tree (its root), after checking that the run, and the span when named, exist. */
async function targetTree(db: Db, runId: string, spanId: string | undefined): Promise<string> {
  const tree = await readRunTreeStarter(db, runId);
  if (!tree) throw new RunNotFound(runId);
  if (spanId !== undefined && !(await readSpan(db, runId, spanId))) throw new AppError("not_found", 404, `There is no span "${spanId}" in run "${runId}"`);
  return tree.rootRunId;
}

const targetName = (runId: string, spanId: string | undefined) => (spanId ? `${runId}/${spanId}` : runId);

/** The row's score or rating, as the audit row and the answer name it (never the comment's text). */
function scoreOf(row: { rating: string | null; key: string; value: number | null; category: string | null }) {
  return row.key === "" ? { rating: row.rating } : { key: row.key, ...(row.value !== null ? { value: row.value } : { category: row.category }) };
}

/**
 * Sets (or changes) the caller's feedback on a run or span: the thumbs, or a named score (its key with a number or
 * a category); audited as feedback.set with the rating or the score, never the comment's text.
 */
export async function setFeedback(actor: Actor, input: z.output<typeof setFeedbackSchema>, db: Db = getDb()): Promise<FeedbackSet> {
  const rootRunId = await targetTree(db, input.runId, input.spanId);
  const spanId = input.spanId ?? "";
  const comment = input.comment ?? null;
  // The schema lets through the thumbs or a score, never both: key "" is the thumbs.
  const fields = input.key === undefined ? { key: "", rating: input.rating ?? null, value: null, category: null } : { key: input.key, rating: null, value: input.value ?? null, category: input.category ?? null };
  return writeTransaction(
    db,
    async (tx) => {
      const where = { runId_spanId_userId_key: { runId: input.runId, spanId, userId: actor.id, key: fields.key } };
      const before = await tx.feedback.findUnique({ where });
      const row = await tx.feedback.upsert({
        where,
        create: { id: `fb_${randomUUID()}`, runId: input.runId, rootRunId, spanId, userId: actor.id, ...fields, comment },
        update: { rating: fields.rating, value: fields.value, category: fields.category, comment },
      });
      await appendAuditInTransaction(tx, {
        actorId: actor.id,
        action: "feedback.set",
        target: targetName(input.runId, input.spanId),
        details: { ...scoreOf(fields), comment: comment !== null, ...(before ? { previous: before.key === "" ? before.rating : (before.value ?? before.category) } : {}) },
      });
      return { id: row.id, rating: ratingOf(fields.rating), key: fields.key || null, value: fields.value, category: fields.category, comment, changed: before !== null };
    },
    // Two tabs of one user setting at once: the loser's insert violates the unique key and is retried as an update.
    { retryOnUniqueViolation: true },
  );
}

const ratingOf = (rating: string | null): FeedbackRating | null => (rating === "down" ? "down" : rating === "up" ? "up" : null);

/** Removes the caller's thumbs (no key) or named score on a run or span (404 when they gave none); audited as feedback.removed. */
export async function removeFeedback(actor: Actor, input: z.output<typeof removeFeedbackSchema>, db: Db = getDb()): Promise<{ removed: true }> {
  await targetTree(db, input.runId, input.spanId);
  return writeTransaction(db, async (tx) => {
    const where = { runId_spanId_userId_key: { runId: input.runId, spanId: input.spanId ?? "", userId: actor.id, key: input.key ?? "" } };
    const found = await tx.feedback.findUnique({ where });
    if (!found) throw new AppError("not_found", 404, `You have given no ${input.key ? `score "${input.key}"` : "feedback"} on ${input.spanId ? `span "${input.spanId}" of ` : ""}run "${input.runId}"`);
    await tx.feedback.delete({ where });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "feedback.removed", target: targetName(input.runId, input.spanId), details: scoreOf(found) });
    return { removed: true as const };
  });
}

/** Feedback of a run: of its whole tree when it is a root (the trace shows sub-runs' spans), else of the run itself. Newest first. */
export async function listFeedback(actor: Actor, input: z.output<typeof listFeedbackSchema>, db: Db = getDb()): Promise<{ runId: string; items: FeedbackItem[] }> {
  const tree = await readRunTreeStarter(db, input.runId);
  if (!tree) throw new RunNotFound(input.runId);
  const rows = await db.feedback.findMany({ where: tree.rootRunId === input.runId ? { rootRunId: input.runId } : { runId: input.runId }, orderBy: [{ updatedAt: "desc" }, { id: "asc" }], take: 2_000 });
  const users = await db.user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.userId))] } }, select: { id: true, email: true } });
  const emails = new Map(users.map((u) => [u.id, u.email]));
  const items = rows.map(
    (r): FeedbackItem => ({
      id: r.id,
      runId: r.runId,
      spanId: r.spanId === "" ? null : r.spanId,
      rating: r.key === "" ? (ratingOf(r.rating) ?? "up") : null,
      key: r.key || null,
      value: r.value,
      category: r.category,
      comment: r.comment,
      // A deleted user's feedback stays, unnamed.
      user: { id: r.userId, email: emails.get(r.userId) ?? "(removed user)" },
      mine: r.userId === actor.id,
      updatedAt: r.updatedAt.toISOString(),
    }),
  );
  return { runId: input.runId, items };
}

/** The runs list's feedback filter: the root run ids of trees with such feedback (for "none", those with any, to leave out). */
export async function feedbackRootIds(db: Db, filter: FeedbackFilter): Promise<{ include?: string[]; exclude?: string[] }> {
  const rating = filter === "up" || filter === "down" ? { rating: filter } : {};
  const rows = await db.feedback.findMany({ where: rating, select: { rootRunId: true }, distinct: ["rootRunId"] });
  const ids = rows.map((r) => r.rootRunId);
  return filter === "none" ? { exclude: ids } : { include: ids };
}
