// POST /api/datasets/add-runs – one item per finished run: { datasetId | newDataset: { name, description? }, runIds (1–500), note? }
//   → 201 the new version { datasetId, version, itemCount, added, removed }. An item holds the run's task, context and images,
//   its answer, tool calls, routing and plan as expectations, and every tool result of its tree as its tape.
//   A run still going → 409; an unknown run → 404. Audited as dataset.items_added (and dataset.created). Needs agents:edit.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { addRunsToDatasetOperation } from "@/lib/datasets/server/operations";

export const POST = operationRoute(addRunsToDatasetOperation, { status: 201 });
