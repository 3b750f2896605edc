import "server-only";
// The dataset operations, one each, from which the datasets pages' server
// actions and /api/datasets are built. Reading needs `read`; changing a
// dataset needs `agents:edit` (the builders who change the agents it tests).
import { operation } from "../../http/server/operation";
import { getDb } from "../../db/server/db";
import { ValidationError } from "../../errors";
import {
  addApprovalsToDatasetSchema,
  addRunsToDatasetSchema,
  archiveDatasetSchema,
  createDatasetSchema,
  describeImportProblem,
  diffDatasetVersionsSchema,
  getDatasetSchema,
  importDatasetSchema,
  listDatasetsSchema,
  listDatasetVersionsSchema,
  listDecidedApprovalsSchema,
  removeDatasetItemsSchema,
  updateDatasetItemSchema,
  type ApprovalsAdded,
} from "../schemas";
import { itemCountProblem, parseImport } from "../import-parse";
import { diffVersions, lastChangedBy, listVersions, readItemsPage } from "./items";
import { applyChange, archiveDataset, createDataset, listDatasets } from "./store";
import { itemFromRecordedRun, itemsFromApprovals, listDecidedApprovals } from "./sources";

const targetOf = (input: { datasetId?: string; newDataset?: { name: string; description?: string } }) => ({ ...(input.datasetId ? { datasetId: input.datasetId } : {}), ...(input.newDataset ? { newDataset: input.newDataset } : {}) });

/** The datasets, and the one the caller last changed (`yourLast`: what "Add to dataset" preselects, never another user's choice). */
export const listDatasetsOperation = operation({
  name: "list-datasets",
  permission: "read",
  input: listDatasetsSchema,
  run: async ({ input, user }) => {
    const [datasets, yourLast] = await Promise.all([listDatasets(getDb(), input.includeArchived ?? false), lastChangedBy(getDb(), user.id)]);
    return { datasets, yourLast: yourLast && datasets.some((d) => d.id === yourLast && !d.archivedAt) ? yourLast : null };
  },
});

export const createDatasetOperation = operation({
  name: "create-dataset",
  permission: "agents:edit",
  input: createDatasetSchema,
  run: ({ input, user }) => createDataset(user, input, getDb()),
});

export const getDatasetOperation = operation({
  name: "get-dataset",
  permission: "read",
  input: getDatasetSchema,
  run: ({ input }) => readItemsPage(getDb(), input),
});

export const listDatasetVersionsOperation = operation({
  name: "list-dataset-versions",
  permission: "read",
  input: listDatasetVersionsSchema,
  run: ({ input }) => listVersions(getDb(), input.datasetId),
});

export const diffDatasetVersionsOperation = operation({
  name: "diff-dataset-versions",
  permission: "read",
  input: diffDatasetVersionsSchema,
  run: ({ input }) => diffVersions(getDb(), input),
});

export const addRunsToDatasetOperation = operation({
  name: "add-runs-to-dataset",
  permission: "agents:edit",
  input: addRunsToDatasetSchema,
  run: async ({ input, user }) => {
    const db = getDb();
    const runIds = [...new Set(input.runIds)];
    // Read before the change's transaction: a run tree can be large, and the write lock is held only to store.
    const items = [];
    for (const runId of runIds) items.push(await itemFromRecordedRun(db, runId));
    const note = input.note || `Added ${runIds.length} run${runIds.length === 1 ? "" : "s"}`;
    return applyChange(user, targetOf(input), { add: items, note, action: "dataset.items_added", details: { from: "runs", runIds } }, db);
  },
});

export const addApprovalsToDatasetOperation = operation({
  name: "add-approvals-to-dataset",
  permission: "agents:edit",
  input: addApprovalsToDatasetSchema,
  run: async ({ input, user }) => {
    const db = getDb();
    const { items, leftOut } = await itemsFromApprovals(db, input.approvalIds);
    const left = leftOut.length ? ` (${leftOut.length} decided in edited history left out)` : "";
    const note = input.note || `Added ${items.length} approval decision${items.length === 1 ? "" : "s"}${left}`;
    const details = { from: "approvals", approvalIds: input.approvalIds, ...(leftOut.length ? { leftOut: leftOut.map((l) => l.approvalId) } : {}) };
    const change = await applyChange(user, targetOf(input), { add: items, note, action: "dataset.items_added", details }, db);
    return { ...change, leftOut } satisfies ApprovalsAdded;
  },
});

export const listDecidedApprovalsOperation = operation({
  name: "list-decided-approvals",
  permission: "read",
  input: listDecidedApprovalsSchema,
  run: ({ input }) => listDecidedApprovals(getDb(), input),
});

export const importDatasetOperation = operation({
  name: "import-dataset",
  permission: "agents:edit",
  input: importDatasetSchema,
  run: async ({ input, user }) => {
    const parsed = parseImport(input.format, input.content);
    if (parsed.problems.length && !input.skipInvalid) {
      const issues = parsed.problems.map((p) => ({ path: `line ${p.line}${p.column ? `.${p.column}` : ""}`, message: describeImportProblem(p) }));
      const more = parsed.invalidLines > parsed.problems.length ? ` (${parsed.invalidLines} lines in all; the first ${parsed.problems.length} are listed)` : "";
      throw new ValidationError(issues, `Nothing was imported: ${parsed.invalidLines} line${parsed.invalidLines === 1 ? " has a problem" : "s have problems"}${more}. ${describeImportProblem(parsed.problems[0]!)}`);
    }
    if (parsed.items.length === 0) throw new ValidationError([{ path: "content", message: "the file has 0 items" }], `The ${input.format.toUpperCase()} file has 0 items${parsed.invalidLines ? ` (${parsed.invalidLines} lines had problems)` : ""}`);
    const tooMany = itemCountProblem(parsed.items.length);
    if (tooMany) throw new ValidationError([{ path: "content", message: tooMany }], `The file has ${parsed.items.length.toLocaleString("en-US")} items, over the limit of 100,000`);
    const skipped = parsed.invalidLines;
    const note = input.note || `Imported ${parsed.items.length} item${parsed.items.length === 1 ? "" : "s"} from ${input.format.toUpperCase()}${skipped ? ` (${skipped} invalid line${skipped === 1 ? "" : "s"} skipped)` : ""}`;
    const change = await applyChange(user, targetOf(input), { add: parsed.items, note, action: "dataset.imported", details: { format: input.format, skippedLines: skipped } }, getDb());
    return { ...change, skipped: parsed.problems };
  },
});

export const updateDatasetItemOperation = operation({
  name: "update-dataset-item",
  permission: "agents:edit",
  input: updateDatasetItemSchema,
  run: ({ input, user }) =>
    applyChange(
      user,
      { datasetId: input.datasetId },
      {
        edit: [{ itemId: input.itemId, ...(input.input ? { input: input.input } : {}), ...(input.expected ? { expected: input.expected } : {}), ...(input.tags ? { tags: input.tags } : {}) }],
        note: input.note || `Edited item ${input.itemId}`,
        action: "dataset.item_updated",
        details: { itemId: input.itemId },
      },
      getDb(),
    ),
});

export const removeDatasetItemsOperation = operation({
  name: "remove-dataset-items",
  permission: "agents:edit",
  input: removeDatasetItemsSchema,
  run: ({ input, user }) => {
    const n = new Set(input.itemIds).size;
    return applyChange(user, { datasetId: input.datasetId }, { remove: input.itemIds, note: input.note || `Removed ${n} item${n === 1 ? "" : "s"}`, action: "dataset.item_removed", details: { itemIds: input.itemIds.slice(0, 100) } }, getDb());
  },
});

export const archiveDatasetOperation = operation({
  name: "archive-dataset",
  permission: "agents:edit",
  input: archiveDatasetSchema,
  run: ({ input, user }) => archiveDataset(user, input.datasetId, getDb()),
});
