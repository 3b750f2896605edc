// PATCH /api/users/:id – change a user's role (admins only; body { "role": "builder" }).
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody, parseParam } from "@/lib/http/server/api-route";
import { changeRoleSchema } from "@/lib/users/schemas";
import { changeUserRole } from "@/lib/users/server/users";

const bodySchema = changeRoleSchema.pick({ role: true });

export const PATCH = apiRoute<{ id: string }>({
  permission: "users:manage",
  handler: async ({ request, user, params }) => {
    const userId = parseParam(changeRoleSchema.shape.userId, params.id, "id");
    const body = await parseJsonBody(request, bodySchema);
    const updated = await changeUserRole(user, { userId, role: body.role });
    return NextResponse.json({ user: updated });
  },
});
