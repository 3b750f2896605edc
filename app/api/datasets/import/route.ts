// POST /api/datasets/import – { datasetId | newDataset, format: "csv" | "jsonl", content, skipInvalid?, note? } → 201 the new version
//   and the lines skipped. Columns/keys: task (required), context (JSON), expected_output, expected_output_json,
//   expected_trajectory (JSON), tags (commas or JSON); JSONL also takes exported items back. Any line with a problem → 422
//   listing each by line and column, nothing imported (unless skipInvalid). 0 items or over 100,000 → 422 naming the count.
//   A body over IMPORT_BODY_BYTES → 413. Audited as dataset.imported. Needs agents:edit.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { importDatasetOperation } from "@/lib/datasets/server/operations";
import { IMPORT_BODY_BYTES } from "@/lib/datasets/schemas";

export const POST = operationRoute(importDatasetOperation, { status: 201, maxBodyBytes: IMPORT_BODY_BYTES });
