// PATCH /api/users/:id – change a user's role and/or disable or enable them
// (admins only; body { "role": "builder" }, { "disabled": true }, or both).
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody, parseParam } from "@/lib/http/server/api-route";
import { changeRoleSchema, updateUserBodySchema, type UserSummary } from "@/lib/users/schemas";
import { changeUserRole, setUserDisabled } from "@/lib/users/server/users";

export const PATCH = apiRoute<{ id: string }>({
  permission: "users:manage",
  handler: async ({ request, user, params }) => {
    const userId = parseParam(changeRoleSchema.shape.userId, params.id, "id");
    const body = await parseJsonBody(request, updateUserBodySchema);
    let updated: UserSummary | undefined;
    if (body.role !== undefined) updated = await changeUserRole(user, { userId, role: body.role });
    if (body.disabled !== undefined) updated = await setUserDisabled(user, { userId, disabled: body.disabled });
    return NextResponse.json({ user: updated });
  },
});
