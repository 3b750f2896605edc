// GET /api/me – the signed-in user and their role.
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ user }) => NextResponse.json({ user }),
});
