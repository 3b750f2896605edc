// GET /api/users – every user with their role and status (admins only).
// POST /api/users – create a user ({ email, name, role, kind: "password" | "invite" });
//   answers 201 with the user and, for "password", the one-time password (shown once).
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody } from "@/lib/http/server/api-route";
import { createUserSchema } from "@/lib/users/schemas";
import { createUser, listUsers } from "@/lib/users/server/users";

export const GET = apiRoute({
  permission: "users:manage",
  handler: async () => NextResponse.json({ users: await listUsers() }),
});

export const POST = apiRoute({
  permission: "users:manage",
  handler: async ({ request, user }) => {
    const body = await parseJsonBody(request, createUserSchema);
    return NextResponse.json(await createUser(user, body), { status: 201, headers: { "Cache-Control": "no-store" } });
  },
});
