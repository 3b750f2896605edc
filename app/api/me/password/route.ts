// POST /api/me/password – change your own password ({ currentPassword, newPassword });
// your other sessions end, this one gets a fresh session cookie.
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody } from "@/lib/http/server/api-route";
import { changeOwnPasswordSchema } from "@/lib/users/schemas";
import { changeOwnPassword } from "@/lib/users/server/users";
import { continueSessionAfterPasswordChange } from "@/lib/auth/server/password-change";

export const POST = apiRoute({
  permission: "read",
  allowMustChangePassword: true,
  handler: async ({ request, user }) => {
    const body = await parseJsonBody(request, changeOwnPasswordSchema);
    await changeOwnPassword(user, body);
    await continueSessionAfterPasswordChange(user.email, body.newPassword);
    return NextResponse.json({ changed: true });
  },
});
