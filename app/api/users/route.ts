// GET /api/users – every user with their role (admins only).
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { listUsers } from "@/lib/users/server/users";

export const GET = apiRoute({
  permission: "users:manage",
  handler: async () => NextResponse.json({ users: await listUsers() }),
});
