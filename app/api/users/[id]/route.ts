// PATCH /api/users/:id – change a user's role (admins only; body { "role": "builder" }).
import { NextResponse } from "next/server";
import { z } from "zod";
import { apiRoute, parseJsonBody } from "@/lib/http/server/api-route";
import { changeRoleSchema } from "@/lib/users/schemas";
import { changeUserRole } from "@/lib/users/server/users";

const bodySchema = changeRoleSchema.pick({ role: true });

export const PATCH = apiRoute<{ id: string }>({
  permission: "users:manage",
  handler: async ({ request, user, params }) => {
    const body = await parseJsonBody(request, bodySchema);
    const updated = await changeUserRole(user, { userId: z.string().min(1).parse(params.id), role: body.role });
    return NextResponse.json({ user: updated });
  },
});
