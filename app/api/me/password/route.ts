// POST /api/me/password – change your own password ({ currentPassword, newPassword });
// your other sessions end, this one gets a fresh session cookie (the account page's operation).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { changeOwnPasswordOperation } from "@/lib/users/server/operations";

export const POST = operationRoute(changeOwnPasswordOperation);
