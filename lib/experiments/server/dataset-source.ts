// The dataset side of an experiment, through the datasets domain's reader
// (lib/datasets/server/items.ts): the pinned version's items at the start, and
// one item for a unit. The worker loads this module (no `server-only`); a unit
// reads its version's items once per worker process and experiment, not once per unit.
import type { Db } from "../../db/prisma";
import { AppError } from "../../errors";
import type { DatasetItem } from "../../datasets/schemas";
import { readDatasetItems } from "../../datasets/server/items";

export interface DatasetRef {
  id: string;
  name: string;
  version: number;
}

class DatasetNotFound extends AppError {
  constructor(ref: string) {
    super("not_found", 404, `There is no dataset named "${ref}"`);
    this.name = "DatasetNotFound";
  }
}

/** A dataset by id (ds_…) or name, and the items of its version (default: the newest). */
export async function resolveDatasetItems(db: Db, ref: string, version?: number): Promise<{ dataset: DatasetRef; items: DatasetItem[] }> {
  const row = await db.dataset.findFirst({ where: ref.startsWith("ds_") ? { OR: [{ id: ref }, { name: ref }] } : { name: ref }, select: { id: true } });
  if (!row) throw new DatasetNotFound(ref);
  return readDatasetItems(db, { datasetId: row.id, ...(version !== undefined ? { version } : {}) });
}

const CACHED_VERSIONS = 4;
const cache = new Map<string, Promise<Map<string, DatasetItem>>>();

/** One item of a pinned dataset version (versions are immutable, so caching them is safe). */
export async function readExperimentItem(db: Db, datasetId: string, version: number, itemId: string): Promise<DatasetItem | null> {
  const key = `${datasetId}@${version}`;
  let items = cache.get(key);
  if (!items) {
    items = readDatasetItems(db, { datasetId, version }).then(({ items: list }) => new Map(list.map((item) => [item.id, item])));
    // A failed read is not kept: the unit's retry reads again.
    items.catch(() => cache.delete(key));
    cache.set(key, items);
    while (cache.size > CACHED_VERSIONS) cache.delete(cache.keys().next().value ?? key);
  } else {
    // Most recently used last.
    cache.delete(key);
    cache.set(key, items);
  }
  return (await items).get(itemId) ?? null;
}
