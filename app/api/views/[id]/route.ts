// POST /api/views/:id – rename a saved view or replace its filters: { name?, filters? } → the view. Audited as view.updated.
// DELETE /api/views/:id – delete it (no body) → { id, deleted: true }. Audited as view.deleted.
// Only your own views: another user's id is a 404, as an unknown one.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { deleteViewOperation, updateViewOperation } from "@/lib/views/server/operations";

export const POST = operationRoute(updateViewOperation, { path: (params: { id: string }) => ({ id: params.id }) });

export const DELETE = operationRoute(deleteViewOperation, { path: (params: { id: string }) => ({ id: params.id }), body: false });
