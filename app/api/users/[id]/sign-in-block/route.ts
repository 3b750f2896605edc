// DELETE /api/users/:id/sign-in-block – lift the account's sign-in blocks (admins only; no body): every
//   address refused for it after ten wrong passwords, and its guard → the user (as the action answers),
//   `signInBlock: null`. Audited as user.sign_in_unblocked. GET /api/users shows each user's `signInBlock`.
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { liftSignInBlockOperation } from "@/lib/users/server/operations";

export const DELETE = operationRoute(liftSignInBlockOperation, { path: (params: { id: string }) => ({ userId: params.id }), body: false });
