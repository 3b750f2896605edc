// Browser-safe contract of datasets: named, versioned sets of tasks with their
// expected answers and a tape of recorded tool results, built from runs, from
// approval decisions or from an imported CSV / JSONL file. Experiments (H4) run
// an agent over one pinned version. One schema for every door (server action,
// route, TypeScript client). Server code lives in ./server.
import { z } from "zod";
import type { ImageRef } from "../attachments/schemas";
import type { TapeEntry } from "../tapes/schemas";

/** At most this many items in one version of a dataset (an import or an add beyond it is a 422 naming the count). */
export const MAX_DATASET_ITEMS = 100_000;
/** The largest import file (CSV or JSONL text), in characters. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** The import route's body cap (the file as a JSON string, escaped): beyond it, 413. Below the proxy's 14 MB buffer. */
export const IMPORT_BODY_BYTES = 12 * 1024 * 1024;
/** At most this many runs or approvals added in one request. */
export const MAX_ADD_PER_REQUEST = 500;
/** Items on one page of the dataset page's table. */
export const ITEMS_PAGE_SIZE = 50;

/** One expected tool call, in order (the trajectory an agent should follow). */
export interface ExpectedCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** A call that must NOT happen as proposed (a rejected approval), with the approver's reason. */
export interface NegativeExample {
  tool: string;
  arguments: Record<string, unknown>;
  reason: string;
}

export interface DatasetItemInput {
  task: string;
  context: Record<string, unknown>;
  images?: ImageRef[];
}

export interface DatasetItemExpected {
  /** Text answer. */
  output?: string | null;
  /** Typed answer (JSON). */
  outputData?: unknown;
  trajectory?: ExpectedCall[];
  routing?: { target: string; fallback?: boolean };
  plan?: { cards?: string[]; nodeCount?: number; outcome?: string };
  /** Calls that must NOT happen as proposed (from rejected approvals), with the approver's reason. */
  negative?: NegativeExample[];
}

/** Recorded tool results of an item: `tool_call` tape entries (with recorded approval decisions). */
export type DatasetTapeEntry = Extract<TapeEntry, { kind: "tool_call" }>;

export interface DatasetItemSource {
  runId?: string;
  approvalId?: string;
  import?: "csv" | "jsonl";
}

export interface DatasetItem {
  /** Stable across versions: an edited item keeps its id (a diff reports it as changed). */
  id: string;
  position: number;
  input: DatasetItemInput;
  expected: DatasetItemExpected;
  /** Recorded tool results, `tool_call` TapeEntry values (lib/tapes/schemas.ts), with recorded approval decisions. */
  tape: TapeEntry[];
  tags: string[];
  source: DatasetItemSource;
}

/** What `readDatasetItems` (lib/datasets/server/items.ts) returns: one version of a dataset, whole. */
export interface DatasetVersionItems {
  dataset: { id: string; name: string; version: number };
  items: DatasetItem[];
}

export interface DatasetSummary {
  id: string;
  name: string;
  description: string | null;
  createdBy: string | null;
  createdAt: string;
  archivedAt: string | null;
  /** The newest version's number (0: no items added yet). */
  latestVersion: number;
  itemCount: number;
  updatedAt: string;
}

export interface DatasetVersionSummary {
  number: number;
  note: string;
  itemCount: number;
  createdBy: string | null;
  createdAt: string;
}

export interface DatasetItemsPage {
  dataset: DatasetSummary;
  version: number;
  items: DatasetItem[];
  total: number;
  page: number;
  pageSize: number;
}

export interface DatasetDiff {
  from: number;
  to: number;
  added: DatasetItem[];
  removed: DatasetItem[];
  changed: { before: DatasetItem; after: DatasetItem }[];
}

/** The result of every change: the new version it made. */
export interface DatasetChange {
  datasetId: string;
  version: number;
  itemCount: number;
  /** Items this change added (or replaced, for an edit). */
  added: number;
  removed: number;
}

// ---- the item's parts as inputs (strict: unknown keys are refused) ----

const jsonRecord = z.record(z.string(), z.unknown());
const toolName = z.string().trim().min(1, "name the tool").max(200);

export const expectedCallSchema = z.strictObject({ tool: toolName, arguments: jsonRecord });
export const negativeExampleSchema = z.strictObject({ tool: toolName, arguments: jsonRecord, reason: z.string().max(10_000) });

export const datasetItemInputSchema = z.strictObject({
  task: z.string().trim().min(1, "task is required").max(100_000, "keep the task under 100,000 characters"),
  context: jsonRecord,
});

export const datasetItemExpectedSchema = z.strictObject({
  output: z.string().max(1_000_000).nullish(),
  outputData: z.unknown().optional(),
  trajectory: z.array(expectedCallSchema).max(1_000).optional(),
  routing: z.strictObject({ target: z.string().min(1).max(200), fallback: z.boolean().optional() }).optional(),
  plan: z.strictObject({ cards: z.array(z.string().max(200)).max(200).optional(), nodeCount: z.number().int().min(0).optional(), outcome: z.string().max(200).optional() }).optional(),
  negative: z.array(negativeExampleSchema).max(1_000).optional(),
});

export const datasetTagsSchema = z.array(z.string().trim().min(1).max(60, "keep a tag under 60 characters")).max(50, "at most 50 tags an item");

// ---- ids ----

export const DATASET_ID_PATTERN = /^ds_[A-Za-z0-9-]{8,64}$/;
export const DATASET_ITEM_ID_PATTERN = /^dsi_[A-Za-z0-9-]{8,64}$/;
export const datasetIdSchema = z.string().regex(DATASET_ID_PATTERN, "not a dataset id (ds_…)");
export const datasetItemIdSchema = z.string().regex(DATASET_ITEM_ID_PATTERN, "not a dataset item id (dsi_…)");
const versionNumber = z.coerce.number().int("a version is a whole number").min(1, "versions start at 1");
const note = z.string().trim().max(500, "keep the note under 500 characters");

export const datasetNameSchema = z
  .string()
  .trim()
  .min(1, "name the dataset")
  .max(100, "keep the name under 100 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, "use letters, digits, spaces, dots, dashes and underscores (starting with a letter or digit)");

// ---- operation inputs ----

export const listDatasetsSchema = z.strictObject({ includeArchived: z.coerce.boolean().optional() });

export const createDatasetSchema = z.strictObject({
  name: datasetNameSchema,
  description: z.string().trim().max(2_000, "keep the description under 2,000 characters").optional(),
});

/** Where an add goes: an existing dataset, or a new one created in the same change. */
const target = {
  datasetId: datasetIdSchema.optional(),
  newDataset: createDatasetSchema.optional(),
  note: note.optional(),
};
const oneTarget = (input: { datasetId?: string; newDataset?: unknown }) => (input.datasetId === undefined) !== (input.newDataset === undefined);
const oneTargetMessage = { message: "give either datasetId or newDataset", path: ["datasetId"] };

export const addRunsToDatasetSchema = z
  .strictObject({
    ...target,
    runIds: z.array(z.string().min(1).max(200)).min(1, "choose at least one run").max(MAX_ADD_PER_REQUEST, `add at most ${MAX_ADD_PER_REQUEST} runs at once`),
  })
  .refine(oneTarget, oneTargetMessage);

export const addApprovalsToDatasetSchema = z
  .strictObject({
    ...target,
    approvalIds: z.array(z.string().min(1).max(200)).min(1, "choose at least one approval").max(MAX_ADD_PER_REQUEST, `add at most ${MAX_ADD_PER_REQUEST} approvals at once`),
  })
  .refine(oneTarget, oneTargetMessage);

/** Decided approvals a dataset can learn from, newest first (the "Add from approvals" list). */
export const listDecidedApprovalsSchema = z.strictObject({
  tool: z.string().trim().max(200).optional(),
  graphName: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export interface DecidedApproval {
  approvalId: string;
  runId: string;
  rootRunId: string;
  graphName: string | null;
  tool: string;
  arguments: Record<string, unknown>;
  approved: boolean;
  editedArguments: Record<string, unknown> | null;
  reason: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  task: string;
}

/** A chosen approval "Add from approvals" left out: decided in a run tree holding an edited step, why in words. */
export interface LeftOutApproval {
  approvalId: string;
  runId: string;
  reason: string;
}

/** What "Add from approvals" answers: the new version, and the approvals it left out (empty when none). */
export type ApprovalsAdded = DatasetChange & { leftOut: LeftOutApproval[] };

export const IMPORT_FORMATS = ["csv", "jsonl"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const importDatasetSchema = z
  .strictObject({
    ...target,
    format: z.enum(IMPORT_FORMATS, { error: "format is csv or jsonl" }),
    content: z.string().max(MAX_IMPORT_BYTES, `the file is over ${MAX_IMPORT_BYTES / 1024 / 1024} MB`),
    /** Import the valid lines and skip the broken ones (default: nothing is imported when any line fails). */
    skipInvalid: z.boolean().optional(),
  })
  .refine(oneTarget, oneTargetMessage);

export const updateDatasetItemSchema = z
  .strictObject({
    datasetId: datasetIdSchema,
    itemId: datasetItemIdSchema,
    input: datasetItemInputSchema.optional(),
    expected: datasetItemExpectedSchema.optional(),
    tags: datasetTagsSchema.optional(),
    note: note.optional(),
  })
  .refine((input) => input.input !== undefined || input.expected !== undefined || input.tags !== undefined, { message: "change the input, the expected answer or the tags", path: ["expected"] });

export const removeDatasetItemsSchema = z.strictObject({
  datasetId: datasetIdSchema,
  itemIds: z.array(datasetItemIdSchema).min(1, "choose at least one item").max(MAX_DATASET_ITEMS),
  note: note.optional(),
});

export const archiveDatasetSchema = z.strictObject({ datasetId: datasetIdSchema });

export const getDatasetSchema = z.strictObject({
  datasetId: datasetIdSchema,
  version: versionNumber.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(ITEMS_PAGE_SIZE),
});

export const listDatasetVersionsSchema = z.strictObject({ datasetId: datasetIdSchema });

export const diffDatasetVersionsSchema = z.strictObject({ datasetId: datasetIdSchema, from: versionNumber, to: versionNumber });

export const exportDatasetSchema = z.strictObject({ datasetId: datasetIdSchema, version: versionNumber.optional() });

/** One problem of an import, by line (1-based, as an editor counts) and column/key when known. */
export interface ImportProblem {
  line: number;
  column?: string;
  message: string;
}

/** "line 7: broken quotes", "line 12: context is not JSON". */
export function describeImportProblem(problem: ImportProblem): string {
  return `line ${problem.line}: ${problem.column ? `${problem.column} ` : ""}${problem.message}`;
}
