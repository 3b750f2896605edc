// POST /api/users/:id/password-reset – a new one-time password for the user (admins
// only; shown once in the answer); their sessions end and they must choose a new one.
import { NextResponse } from "next/server";
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { resetPasswordSchema } from "@/lib/users/schemas";
import { resetUserPassword } from "@/lib/users/server/users";

export const POST = apiRoute<{ id: string }>({
  permission: "users:manage",
  handler: async ({ user, params }) => {
    const userId = parseParam(resetPasswordSchema.shape.userId, params.id, "id");
    return NextResponse.json(await resetUserPassword(user, { userId }), { headers: { "Cache-Control": "no-store" } });
  },
});
