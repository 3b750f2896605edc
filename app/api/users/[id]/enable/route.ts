// POST /api/users/:id/enable – enable a disabled user again (admins only; no body) → the user (as the action answers).
//   The admin page's set-disabled operation, with `disabled` fixed by the path.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { setUserDisabledOperation } from "@/lib/users/server/operations";

export const POST = operationRoute(setUserDisabledOperation, { path: (params: { id: string }) => ({ userId: params.id, disabled: false }), body: false });
