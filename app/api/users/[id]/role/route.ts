// PATCH /api/users/:id/role – change a user's role (admins only; body { "role": "builder" }) → the user (as the action answers);
//   the admin page's change-role operation; never leaves the workspace without an enabled admin.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { changeUserRoleOperation } from "@/lib/users/server/operations";

export const PATCH = operationRoute(changeUserRoleOperation, { path: (params: { id: string }) => ({ userId: params.id }) });
