// No `server-only`: the worker's online evaluators add low-scored runs by rule (worker/activities/online-eval.ts).
// Every change to a dataset, one transaction each: it makes the next version
// (immutable: a version's rows are never rewritten, only closed for later
// versions), updates the dataset's counters and writes its audit row. Two
// writers adding at once each get their own version; nothing is lost because
// the dataset row is locked (updated) before anything is read.
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/prisma";
import { Prisma } from "../../db/generated/sqlite/client";
import { writeTransaction, type DbTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import type { AuditAction } from "../../audit/actions";
import { AppError, ConflictError, ValidationError } from "../../errors";
import { retryReason } from "../../db/contention";
import { itemCountProblem, type ItemDraft } from "../import-parse";
import type { DatasetChange, DatasetItemExpected, DatasetItemInput, DatasetSummary } from "../schemas";
import { DatasetNotFoundError, ID_SLICE, itemOf, readCurrentRows, summaryOf, type DatasetRow, type StoredItem } from "./items";

interface Actor {
  id: string;
}

/** Where a change goes: an existing dataset, or one created by the same change. */
export interface ChangeTarget {
  datasetId?: string;
  newDataset?: { name: string; description?: string };
}

export interface ItemEdit {
  itemId: string;
  input?: DatasetItemInput;
  expected?: DatasetItemExpected;
  tags?: string[];
}

interface Change {
  add?: ItemDraft[];
  edit?: ItemEdit[];
  remove?: string[];
  note: string;
  action: AuditAction;
  /** What the audit row says beyond the dataset, version and counts (never item payloads). */
  details?: Record<string, unknown>;
}

/** Rows inserted per statement: 6 parameters each stays well under SQLite's 32,766 and PostgreSQL's 65,535. */
const INSERT_BATCH = 1_000;

interface ItemRowInsert {
  id: string;
  datasetId: string;
  itemId: string;
  position: number;
  addedIn: number;
  data: string;
}

/**
 * One multi-row INSERT of item rows. Not `createMany`: Prisma's query compiler plans a createMany anew for every batch,
 * at about 0.2 ms a row (40 % of a 20,000-item import's CPU, profiled 2026-11-30) — more than the database's own
 * work. A tagged template, so Prisma writes each database's placeholders and binds every value; strings and integers
 * only, stored the same by both databases.
 */
async function insertItemRows(client: Db | DbTransaction, rows: readonly ItemRowInsert[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    const values = rows.slice(i, i + INSERT_BATCH).map((row) => Prisma.sql`(${row.id}, ${row.datasetId}, ${row.itemId}, ${row.position}, ${row.addedIn}, ${row.data})`);
    await client.$executeRaw`INSERT INTO dataset_items ("id", "dataset_id", "item_id", "position", "added_in", "data") VALUES ${Prisma.join(values)}`;
  }
}
/**
 * Adds larger than this are written before the version's transaction, as
 * staged rows no version reads, and taken in by it with one update: inserting
 * 100,000 rows inside it would outlast the transaction limit (15 s) under load.
 */
const STAGE_ABOVE = 2_000;
/** A staged row's addedIn: above every version, so no version reads it until its change takes it in. */
const STAGED = 2_147_483_647;
const STAGED_FLIP_BASE_MS = 15_000;
const STAGED_FLIP_MS_PER_ROW = 0.5;

class DatasetArchivedError extends AppError {
  constructor(name: string) {
    super("conflict", 409, `Dataset "${name}" is archived; it can be read and exported, not changed`);
  }
}

class ItemNotInVersionError extends AppError {
  constructor(itemId: string, version: number) {
    super("not_found", 404, `There is no item ${itemId} in the dataset's newest version (${version})`);
  }
}

function storedOf(draft: ItemDraft): string {
  const stored: StoredItem = { input: draft.input, expected: draft.expected, tape: draft.tape, tags: draft.tags, source: draft.source };
  return JSON.stringify(stored);
}

/** A dataset of this name already exists: 409, whether found first or raced in. */
async function uniqueName<T>(name: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (name !== undefined && retryReason(error) === "unique_violation") throw new ConflictError(`There is already a dataset named "${name}"`);
    throw error;
  }
}

async function createRow(tx: DbTransaction, actor: Actor, input: { name: string; description?: string }): Promise<DatasetRow> {
  const row = await tx.dataset.create({ data: { id: `ds_${randomUUID()}`, name: input.name, description: input.description || null, createdById: actor.id } });
  await appendAuditInTransaction(tx, { actorId: actor.id, action: "dataset.created", target: row.id, details: { name: row.name } });
  return row;
}

export async function createDataset(actor: Actor, input: { name: string; description?: string }, db: Db): Promise<DatasetSummary> {
  return uniqueName(input.name, () => writeTransaction(db, async (tx) => summaryOf(await createRow(tx, actor, input))));
}

/**
 * Applies one change as the dataset's next version. The dataset row is updated
 * first (version and position counters), which locks it: a concurrent change
 * waits, then sees this one's rows and counts.
 */
export async function applyChange(actor: Actor, target: ChangeTarget, change: Change, db: Db): Promise<DatasetChange> {
  if ((change.add?.length ?? 0) <= STAGE_ABOVE) return changeInOneTransaction(actor, target, change, db, null);
  const add = change.add ?? [];
  const staged = await stageRows(actor, target, add, db);
  try {
    return await changeInOneTransaction(actor, { datasetId: staged.datasetId }, change, db, staged);
  } catch (error) {
    await db.datasetItemRow.deleteMany({ where: stagedWhere(staged, add.length) }).catch(() => undefined);
    throw error;
  }
}

interface Staged {
  datasetId: string;
  firstPosition: number;
}

const stagedWhere = (staged: Staged, count: number) => ({ datasetId: staged.datasetId, addedIn: STAGED, position: { gte: staged.firstPosition, lt: staged.firstPosition + count } });

function countRefusal(itemCount: number, adding: boolean): ValidationError | null {
  const problem = itemCountProblem(itemCount);
  return problem ? new ValidationError([{ path: adding ? "items" : "itemIds", message: problem }], `${problem[0]?.toUpperCase()}${problem.slice(1)}`) : null;
}

/** Reserves the positions of a large add (creating the dataset if asked) and writes its rows as staged, batch by batch. */
async function stageRows(actor: Actor, target: ChangeTarget, add: ItemDraft[], db: Db): Promise<Staged> {
  const staged = await uniqueName(target.newDataset?.name, () =>
    writeTransaction(
      db,
      async (tx) => {
        const created = target.newDataset ? await createRow(tx, actor, target.newDataset) : null;
        const datasetId = created?.id ?? target.datasetId ?? "";
        const before = created ?? (await tx.dataset.findUnique({ where: { id: datasetId } }));
        if (!before) throw new DatasetNotFoundError(datasetId);
        if (before.archivedAt) throw new DatasetArchivedError(before.name);
        // Checked again when the version is made; refusing here saves writing rows that would be thrown away.
        const refusal = countRefusal(before.itemCount + add.length, true);
        if (refusal) throw refusal;
        const reserved = await tx.dataset.update({ where: { id: datasetId }, data: { nextPosition: { increment: add.length } } });
        return { datasetId, firstPosition: reserved.nextPosition - add.length };
      },
      { isolation: "read-committed" },
    ),
  );
  try {
    for (let i = 0; i < add.length; i += INSERT_BATCH) {
      const batch = add.slice(i, i + INSERT_BATCH).map((draft, index) => ({ id: randomUUID(), datasetId: staged.datasetId, itemId: `dsi_${randomUUID()}`, position: staged.firstPosition + i + index, addedIn: STAGED, data: storedOf(draft) }));
      await insertItemRows(db, batch);
    }
  } catch (error) {
    await db.datasetItemRow.deleteMany({ where: stagedWhere(staged, add.length) }).catch(() => undefined);
    throw error;
  }
  return staged;
}

async function changeInOneTransaction(actor: Actor, target: ChangeTarget, change: Change, db: Db, staged: Staged | null): Promise<DatasetChange> {
  const add = change.add ?? [];
  const edit = change.edit ?? [];
  const remove = [...new Set(change.remove ?? [])];
  return uniqueName(target.newDataset?.name, () =>
    writeTransaction(
      db,
      async (tx) => {
        const created = target.newDataset ? await createRow(tx, actor, target.newDataset) : null;
        const datasetId = created?.id ?? target.datasetId ?? "";
        const before = created ?? (await tx.dataset.findUnique({ where: { id: datasetId } }));
        if (!before) throw new DatasetNotFoundError(datasetId);
        if (before.archivedAt) throw new DatasetArchivedError(before.name);
        const locked = await tx.dataset.update({ where: { id: datasetId }, data: { latestVersion: { increment: 1 }, ...(staged ? {} : { nextPosition: { increment: add.length } }) } });
        const version = locked.latestVersion;
        const previous = version - 1;

        const touched = [...edit.map((e) => e.itemId), ...remove];
        const current = await readCurrentRows(tx, datasetId, previous, touched);
        const byItem = new Map(current.map((row) => [row.itemId, row]));
        const missing = touched.find((itemId) => !byItem.has(itemId));
        if (missing) throw new ItemNotInVersionError(missing, previous);

        const itemCount = locked.itemCount + add.length - remove.length;
        const refusal = countRefusal(itemCount, add.length > 0);
        if (refusal) throw refusal;

        for (let i = 0; i < current.length; i += ID_SLICE) await tx.datasetItemRow.updateMany({ where: { id: { in: current.slice(i, i + ID_SLICE).map((row) => row.id) } }, data: { removedIn: version } });
        const firstPosition = locked.nextPosition - add.length;
        if (staged) await tx.datasetItemRow.updateMany({ where: stagedWhere(staged, add.length), data: { addedIn: version } });
        const rows = [
          ...(staged ? [] : add).map((draft, index) => ({ id: randomUUID(), datasetId, itemId: `dsi_${randomUUID()}`, position: firstPosition + index, addedIn: version, data: storedOf(draft) })),
          ...edit.map((e) => {
            const old = itemOf(byItem.get(e.itemId)!);
            const next: ItemDraft = { input: e.input ? { ...e.input, ...(old.input.images ? { images: old.input.images } : {}) } : old.input, expected: e.expected ?? old.expected, tape: old.tape, tags: e.tags ?? old.tags, source: old.source };
            return { id: randomUUID(), datasetId, itemId: e.itemId, position: old.position, addedIn: version, data: storedOf(next) };
          }),
        ];
        await insertItemRows(tx, rows);

        await tx.dataset.update({ where: { id: datasetId }, data: { itemCount } });
        await tx.datasetVersion.create({ data: { datasetId, number: version, note: change.note, itemCount, createdById: actor.id } });
        const counts = { added: add.length, updated: edit.length, removed: remove.length };
        await appendAuditInTransaction(tx, { actorId: actor.id, action: change.action, target: datasetId, details: { name: locked.name, version, itemCount, ...counts, ...change.details } });
        return { datasetId, version, itemCount, added: add.length + edit.length, removed: remove.length };
      },
      // Read committed: the first update locks the dataset row, so what follows reads the committed state of
      // every earlier change (a serializable retry of a 100,000-item import would redo all its work).
      // A staged import flips all its rows here: allow it time by their number (100,000 rows: 65 s), which a loaded
      // PostgreSQL needed (CI, stop 57: ten 15 s attempts timed out one after another).
      { isolation: "read-committed", retryOnUniqueViolation: target.newDataset === undefined, timeoutMs: staged ? STAGED_FLIP_BASE_MS + add.length * STAGED_FLIP_MS_PER_ROW : undefined },
    ),
  );
}

export async function archiveDataset(actor: Actor, datasetId: string, db: Db): Promise<DatasetSummary> {
  return writeTransaction(db, async (tx) => {
    const row = await tx.dataset.findUnique({ where: { id: datasetId } });
    if (!row) throw new DatasetNotFoundError(datasetId);
    if (row.archivedAt) return summaryOf(row);
    const archived = await tx.dataset.update({ where: { id: datasetId }, data: { archivedAt: new Date() } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "dataset.archived", target: datasetId, details: { name: row.name, version: row.latestVersion } });
    return summaryOf(archived);
  });
}

export async function listDatasets(db: Db, includeArchived: boolean): Promise<DatasetSummary[]> {
  const rows = await db.dataset.findMany({ where: includeArchived ? {} : { archivedAt: null }, orderBy: [{ updatedAt: "desc" }, { id: "asc" }], take: 500 });
  return rows.map(summaryOf);
}
