"use server";
// The dataset reads the pages' client components ask for (the dataset list of
// "Add to dataset", decided approvals, a diff of two versions), built from the
// same operations as GET /api/datasets, /api/datasets/approvals and /api/datasets/:id/diff.
import { defineAction } from "../http/server/action";
import { diffDatasetVersionsOperation, listDatasetsOperation, listDecidedApprovalsOperation } from "../datasets/server/operations";

export const listDatasetsAction = defineAction({ name: listDatasetsOperation.name, permission: listDatasetsOperation.permission, input: listDatasetsOperation.input, handler: listDatasetsOperation.run });
export const listDecidedApprovalsAction = defineAction({ name: listDecidedApprovalsOperation.name, permission: listDecidedApprovalsOperation.permission, input: listDecidedApprovalsOperation.input, handler: listDecidedApprovalsOperation.run });
export const diffDatasetVersionsAction = defineAction({ name: diffDatasetVersionsOperation.name, permission: diffDatasetVersionsOperation.permission, input: diffDatasetVersionsOperation.input, handler: diffDatasetVersionsOperation.run });
