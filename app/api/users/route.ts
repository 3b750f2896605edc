// GET /api/users – every user with their role and status (admins only).
// POST /api/users – create a user ({ email, name, role, kind: "password" | "invite" });
//   answers 201 with the user and, for "password", the one-time password (shown once).
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { listUsers } from "@/lib/users/server/users";
import { createUserOperation } from "@/lib/users/server/operations";

export const GET = apiRoute({
  permission: "users:manage",
  handler: async () => NextResponse.json({ users: await listUsers() }),
});

export const POST = operationRoute(createUserOperation, { status: 201, headers: { "Cache-Control": "no-store" } });
