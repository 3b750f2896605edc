// Dataset versions against a real database, SQLite and PostgreSQL: every change
// makes the next version and an experiment's pinned version reads the same after
// later edits, removals and imports; two writers adding at once lose nothing;
// a diff names added, removed and changed items; 0 and 100,001 items are refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEngineHarness, type EngineHarness } from "../../../scripts/test-support/engine-harness";
import { testProviders } from "../../../scripts/test-support/databases";
import type { ItemDraft } from "../import-parse";

import { applyChange, archiveDataset, createDataset } from "./store";
import { diffVersions, exportJsonl, listVersions, readDatasetItems, readItemsPage } from "./items";
import { scaledWait } from "../../../scripts/test-support/wait-scale";

const providers = await testProviders();

const draft = (task: string, output?: string): ItemDraft => ({ input: { task, context: { n: task } }, expected: output === undefined ? {} : { output }, tape: [], tags: [], source: { import: "jsonl" } });

// The providers side by side (each its own harness and database): the big import is work for node and SQLite on one
// side, for PostgreSQL's server on the other. A provider's tests in order (sequential).
describe.concurrent.each(providers)("dataset versions on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let actor: { id: string };
  let counter = 0;
  const fresh = async () => createDataset(actor, { name: `ds-${Date.now()}-${counter++}` }, h.db);

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ worker: false, database: await create() });
    actor = { id: (await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" } })).id };
  });
  afterAll(async () => h?.stop());

  it.skipIf(!available).sequential("a pinned version reads exactly the same after later edits, removals and adds", async () => {
    const ds = await fresh();
    const v1 = await applyChange(actor, { datasetId: ds.id }, { add: [draft("a", "A"), draft("b", "B"), draft("c", "C")], note: "first three", action: "dataset.imported" }, h.db);
    expect(v1).toEqual({ datasetId: ds.id, version: 1, itemCount: 3, added: 3, removed: 0 });
    const pinned = await readDatasetItems(h.db, { datasetId: ds.id, version: 1 });
    const [a, b, c] = pinned.items;

    await applyChange(actor, { datasetId: ds.id }, { edit: [{ itemId: b!.id, expected: { output: "B2" }, tags: ["edited"] }], note: "fix b", action: "dataset.item_updated" }, h.db);
    await applyChange(actor, { datasetId: ds.id }, { remove: [a!.id], note: "drop a", action: "dataset.item_removed" }, h.db);
    await applyChange(actor, { datasetId: ds.id }, { add: [draft("d")], note: "add d", action: "dataset.items_added" }, h.db);

    expect(await readDatasetItems(h.db, { datasetId: ds.id, version: 1 }), "version 1 is as it was").toEqual(pinned);
    const latest = await readDatasetItems(h.db, { datasetId: ds.id });
    expect(latest.dataset.version).toBe(4);
    expect(latest.items.map((i) => [i.input.task, i.expected.output ?? null, i.tags])).toEqual([
      ["b", "B2", ["edited"]],
      ["c", "C", []],
      ["d", null, []],
    ]);
    expect(latest.items[0]?.id, "an edited item keeps its id and place").toBe(b!.id);
    expect(latest.items[0]?.position).toBe(b!.position);

    const { versions } = await listVersions(h.db, ds.id);
    expect(versions.map((v) => [v.number, v.note, v.itemCount])).toEqual([
      [4, "add d", 3],
      [3, "drop a", 2],
      [2, "fix b", 3],
      [1, "first three", 3],
    ]);

    const diff = await diffVersions(h.db, { datasetId: ds.id, from: 1, to: 4 });
    expect(diff.added.map((i) => i.input.task)).toEqual(["d"]);
    expect(diff.removed.map((i) => i.id)).toEqual([a!.id]);
    expect(diff.changed.map((x) => [x.before.expected.output, x.after.expected.output])).toEqual([["B", "B2"]]);
    expect((await diffVersions(h.db, { datasetId: ds.id, from: 4, to: 1 })).added.map((i) => i.id), "reversed, the removal reads as an add").toEqual([a!.id]);
    expect(c?.input.task).toBe("c");

    const page = await readItemsPage(h.db, { datasetId: ds.id, version: 2, page: 2, pageSize: 2 });
    expect([page.total, page.items.map((i) => i.input.task)]).toEqual([3, ["c"]]);
    const exported = await exportJsonl(h.db, { datasetId: ds.id, version: 1 });
    expect(exported.body.trim().split("\n").map((line) => (JSON.parse(line) as { input: { task: string } }).input.task)).toEqual(["a", "b", "c"]);
    await expect(readDatasetItems(h.db, { datasetId: ds.id, version: 9 })).rejects.toThrow(`has no version 9 (its versions are 1 to 4)`);
  });

  it.skipIf(!available).sequential("two writers adding at once each make a version and lose no item", async () => {
    const ds = await fresh();
    const writer = (name: string) => Array.from({ length: 6 }, (_, i) => applyChange(actor, { datasetId: ds.id }, { add: [draft(`${name}-${i}-1`), draft(`${name}-${i}-2`)], note: `${name} ${i}`, action: "dataset.items_added" }, h.db));
    const results = await Promise.all([...writer("left"), ...writer("right")]);
    expect(results.map((r) => r.version).sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const { items } = await readDatasetItems(h.db, { datasetId: ds.id });
    expect(items).toHaveLength(24);
    expect(new Set(items.map((i) => i.position)).size, "no two items share a position").toBe(24);
    expect(new Set(items.map((i) => i.input.task)).size).toBe(24);
    const { versions, dataset } = await listVersions(h.db, ds.id);
    expect(dataset).toMatchObject({ latestVersion: 12, itemCount: 24 });
    // Each version's count is what it holds: the writers saw each other's rows.
    for (const v of versions) expect((await readDatasetItems(h.db, { datasetId: ds.id, version: v.number })).items).toHaveLength(v.itemCount);
    expect(versions.map((v) => v.itemCount).sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => 2 * (i + 1)));
  });

  it.skipIf(!available).sequential("100,000 items make one version, read back whole in order; a later edit of one leaves them shared", async () => {
    const ds = await fresh();
    const all = Array.from({ length: 100_000 }, (_, i) => draft(`task ${i}`, `answer ${i}`));
    const started = Date.now();
    const v1 = await applyChange(actor, { datasetId: ds.id }, { add: all, note: "big import", action: "dataset.imported" }, h.db);
    const importMs = Date.now() - started;
    expect(v1).toMatchObject({ version: 1, itemCount: 100_000 });
    const read = await readDatasetItems(h.db, { datasetId: ds.id, version: 1 });
    expect(read.items).toHaveLength(100_000);
    expect(read.items[99_999]?.input.task).toBe("task 99999");
    await applyChange(actor, { datasetId: ds.id }, { edit: [{ itemId: read.items[5]!.id, tags: ["checked"] }], note: "one edit", action: "dataset.item_updated" }, h.db);
    expect(await h.db.datasetItemRow.count({ where: { datasetId: ds.id } }), "the edit added one row, not a copy").toBe(100_001);
    console.info(`100,000-item import: ${importMs} ms`);
  }, scaledWait(300_000));

  it.skipIf(!available).sequential("refuses 0 and 100,001 items by count, an item not in the newest version, and changes to an archived dataset", async () => {
    const ds = await fresh();
    await expect(applyChange(actor, { datasetId: ds.id }, { add: [], note: "none", action: "dataset.imported" }, h.db)).rejects.toMatchObject({ status: 422, userMessage: "The dataset would have 0 items; add at least one" });
    const tooMany = Array.from({ length: 100_001 }, (_, i) => draft(`t${i}`));
    await expect(applyChange(actor, { datasetId: ds.id }, { add: tooMany, note: "big", action: "dataset.imported" }, h.db)).rejects.toMatchObject({ status: 422, userMessage: "The dataset would have 100,001 items, over the limit of 100,000" });
    expect((await listVersions(h.db, ds.id)).versions, "a refused change makes no version").toEqual([]);

    await applyChange(actor, { datasetId: ds.id }, { add: [draft("only")], note: "one", action: "dataset.imported" }, h.db);
    const [only] = (await readDatasetItems(h.db, { datasetId: ds.id })).items;
    await expect(applyChange(actor, { datasetId: ds.id }, { remove: [only!.id], note: "empty", action: "dataset.item_removed" }, h.db)).rejects.toMatchObject({ status: 422 });
    await expect(applyChange(actor, { datasetId: ds.id }, { remove: ["dsi_00000000-0000"], note: "x", action: "dataset.item_removed" }, h.db)).rejects.toMatchObject({ status: 404, userMessage: "There is no item dsi_00000000-0000 in the dataset's newest version (1)" });
    await expect(createDataset(actor, { name: ds.name }, h.db)).rejects.toMatchObject({ status: 409, userMessage: `There is already a dataset named "${ds.name}"` });

    await archiveDataset(actor, ds.id, h.db);
    await expect(applyChange(actor, { datasetId: ds.id }, { add: [draft("late")], note: "late", action: "dataset.items_added" }, h.db)).rejects.toMatchObject({ status: 409 });
    expect((await readDatasetItems(h.db, { datasetId: ds.id })).items.map((i) => i.input.task), "still readable").toEqual(["only"]);
  });
});
