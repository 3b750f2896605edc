// Reads of datasets: one version's items (whole, for experiments; or a page),
// versions, diffs and exports. An item row covers the versions from `addedIn`
// up to (not including) `removedIn`, so any old version reads exactly as it was.
// No `server-only`: the worker's experiment activities call readDatasetItems.
import type { Db } from "../../db/prisma";
import type { DbTransaction } from "../../db/transactions";
import { AppError } from "../../errors";
import type { DatasetDiff, DatasetItem, DatasetItemsPage, DatasetSummary, DatasetVersionItems, DatasetVersionSummary } from "../schemas";

type Client = Db | DbTransaction;

export class DatasetNotFoundError extends AppError {
  constructor(datasetId: string) {
    super("not_found", 404, `There is no dataset ${datasetId}`);
  }
}

export class DatasetVersionNotFoundError extends AppError {
  constructor(name: string, version: number, latest: number) {
    super("not_found", 404, latest === 0 ? `Dataset "${name}" has no versions yet (add items first)` : `Dataset "${name}" has no version ${version} (its versions are 1 to ${latest})`);
  }
}

export interface DatasetRow {
  id: string;
  name: string;
  description: string | null;
  createdById: string | null;
  latestVersion: number;
  itemCount: number;
  nextPosition: number;
  archivedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface ItemRow {
  id: string;
  itemId: string;
  position: number;
  addedIn: number;
  removedIn: number | null;
  data: string;
}

/** What an item row's `data` holds: the item without its id and position. */
export type StoredItem = Omit<DatasetItem, "id" | "position">;

export function summaryOf(row: DatasetRow): DatasetSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdBy: row.createdById,
    createdAt: row.createdAt.toISOString(),
    archivedAt: row.archivedAt?.toISOString() ?? null,
    latestVersion: row.latestVersion,
    itemCount: row.itemCount,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function itemOf(row: Pick<ItemRow, "itemId" | "position" | "data">): DatasetItem {
  const stored = JSON.parse(row.data) as StoredItem;
  return { id: row.itemId, position: row.position, input: stored.input, expected: stored.expected ?? {}, tape: stored.tape ?? [], tags: stored.tags ?? [], source: stored.source ?? {} };
}

/** The rows that make up version `version` of a dataset. */
export function rowsAt(datasetId: string, version: number) {
  return { datasetId, addedIn: { lte: version }, OR: [{ removedIn: null }, { removedIn: { gt: version } }] };
}

const inVersion = (row: Pick<ItemRow, "addedIn" | "removedIn">, version: number) => row.addedIn <= version && (row.removedIn === null || row.removedIn > version);

export async function readDatasetRow(db: Client, datasetId: string): Promise<DatasetRow> {
  const row = await db.dataset.findUnique({ where: { id: datasetId } });
  if (!row) throw new DatasetNotFoundError(datasetId);
  return row;
}

/** The version asked for (default: the newest), checked to exist. */
export function versionOf(dataset: DatasetRow, version: number | undefined): number {
  const chosen = version ?? dataset.latestVersion;
  if (version !== undefined && (version < 1 || version > dataset.latestVersion)) throw new DatasetVersionNotFoundError(dataset.name, version, dataset.latestVersion);
  return chosen;
}

/** Ids named in one statement, at most (SQLite binds up to 32,766 parameters). */
export const ID_SLICE = 1_000;

/** Rows are read in position order, this many at a time (a version may hold 100,000 items). */
const BATCH = 5_000;

/** Every item of one version in position order (default: the newest version): what an experiment runs over. */
export async function readDatasetItems(db: Db, { datasetId, version }: { datasetId: string; version?: number }): Promise<DatasetVersionItems> {
  const dataset = await readDatasetRow(db, datasetId);
  const chosen = versionOf(dataset, version);
  const items: DatasetItem[] = [];
  if (chosen === 0) return { dataset: { id: dataset.id, name: dataset.name, version: 0 }, items };
  for (let after = 0; ; ) {
    const rows = await db.datasetItemRow.findMany({ where: { ...rowsAt(datasetId, chosen), position: { gt: after } }, orderBy: { position: "asc" }, take: BATCH, select: { itemId: true, position: true, data: true } });
    items.push(...rows.map(itemOf));
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) break;
    after = last.position;
  }
  return { dataset: { id: dataset.id, name: dataset.name, version: chosen }, items };
}

/** One page of a version's items, in position order. */
export async function readItemsPage(db: Db, input: { datasetId: string; version?: number; page: number; pageSize: number }): Promise<DatasetItemsPage> {
  const dataset = await readDatasetRow(db, input.datasetId);
  const version = versionOf(dataset, input.version);
  const where = rowsAt(dataset.id, version);
  const [total, rows] =
    version === 0 ? [0, []] : await Promise.all([db.datasetItemRow.count({ where }), db.datasetItemRow.findMany({ where, orderBy: { position: "asc" }, skip: (input.page - 1) * input.pageSize, take: input.pageSize, select: { itemId: true, position: true, data: true } })]);
  return { dataset: summaryOf(dataset), version, items: rows.map(itemOf), total, page: input.page, pageSize: input.pageSize };
}

/** A version's row ids by item id (the items an edit or a removal may name). */
export async function readCurrentRows(db: Client, datasetId: string, version: number, itemIds: readonly string[]): Promise<ItemRow[]> {
  if (version === 0 || itemIds.length === 0) return [];
  const rows: ItemRow[] = [];
  // In slices: a removal may name many items, beyond a statement's bound-parameter limit.
  for (let i = 0; i < itemIds.length; i += ID_SLICE) rows.push(...(await db.datasetItemRow.findMany({ where: { ...rowsAt(datasetId, version), itemId: { in: itemIds.slice(i, i + ID_SLICE) } } })));
  return rows;
}

/** The dataset whose newest version `userId` made last (the version rows record who made each), or null. */
export async function lastChangedBy(db: Db, userId: string): Promise<string | null> {
  const row = await db.datasetVersion.findFirst({ where: { createdById: userId }, orderBy: { createdAt: "desc" }, select: { datasetId: true } });
  return row?.datasetId ?? null;
}

export async function listVersions(db: Db, datasetId: string): Promise<{ dataset: DatasetSummary; versions: DatasetVersionSummary[] }> {
  const dataset = await readDatasetRow(db, datasetId);
  const rows = await db.datasetVersion.findMany({ where: { datasetId }, orderBy: { number: "desc" } });
  return { dataset: summaryOf(dataset), versions: rows.map((v) => ({ number: v.number, note: v.note, itemCount: v.itemCount, createdBy: v.createdById, createdAt: v.createdAt.toISOString() })) };
}

/**
 * What changed from version `from` to version `to`: items only in `to` (added),
 * only in `from` (removed), and in both with other content (changed: an edit
 * keeps the item id). Only rows that start or end between the two are read.
 */
export async function diffVersions(db: Db, input: { datasetId: string; from: number; to: number }): Promise<DatasetDiff> {
  const dataset = await readDatasetRow(db, input.datasetId);
  versionOf(dataset, input.from);
  versionOf(dataset, input.to);
  const lo = Math.min(input.from, input.to);
  const hi = Math.max(input.from, input.to);
  const rows = await db.datasetItemRow.findMany({
    where: { datasetId: dataset.id, OR: [{ addedIn: { gt: lo, lte: hi } }, { removedIn: { gt: lo, lte: hi } }] },
    orderBy: { position: "asc" },
  });
  const before = new Map<string, ItemRow>();
  const after = new Map<string, ItemRow>();
  for (const row of rows) {
    const inFrom = inVersion(row, input.from);
    const inTo = inVersion(row, input.to);
    if (inFrom && !inTo) before.set(row.itemId, row);
    if (inTo && !inFrom) after.set(row.itemId, row);
  }
  const diff: DatasetDiff = { from: input.from, to: input.to, added: [], removed: [], changed: [] };
  for (const [itemId, row] of after) {
    const old = before.get(itemId);
    if (old) diff.changed.push({ before: itemOf(old), after: itemOf(row) });
    else diff.added.push(itemOf(row));
  }
  for (const [itemId, row] of before) if (!after.has(itemId)) diff.removed.push(itemOf(row));
  return diff;
}

/** One version as JSON Lines, one item a line ({ id, position, input, expected, tape, tags, source }); imports back as JSONL. */
export async function exportJsonl(db: Db, input: { datasetId: string; version?: number }): Promise<{ name: string; version: number; body: string }> {
  const { dataset, items } = await readDatasetItems(db, input);
  return { name: dataset.name, version: dataset.version, body: items.map((item) => JSON.stringify(item)).join("\n") + (items.length ? "\n" : "") };
}
