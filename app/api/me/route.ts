// GET /api/me – the signed-in user and their role.
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";

export const GET = apiRoute({
  permission: "read",
  // Who am I is harmless and the account page may ask it while a one-time password is being replaced.
  allowMustChangePassword: true,
  handler: async ({ user }) => NextResponse.json({ user }),
});
