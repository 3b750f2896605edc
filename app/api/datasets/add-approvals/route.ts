// POST /api/datasets/add-approvals – one item per decided approval: { datasetId | newDataset, approvalIds (1–500), note? } → 201 the
//   new version and `leftOut` (calls decided in edited history, with why; only such calls: 422). Approved (or edited) arguments
//   become an expected call; a rejection a negative example with its reason. Audited as dataset.items_added. Needs agents:edit.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { addApprovalsToDatasetOperation } from "@/lib/datasets/server/operations";

export const POST = operationRoute(addApprovalsToDatasetOperation, { status: 201 });
