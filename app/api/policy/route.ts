// GET /api/policy – the workspace approval policy in force (anyone signed in).
// PUT /api/policy – replace it (admins only; audited with before and after; runs already started keep theirs).
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { getWorkspacePolicy } from "@/lib/policy/server/policy";
import { updateWorkspacePolicyOperation } from "@/lib/policy/server/operations";

export const GET = apiRoute({
  permission: "read",
  handler: async () => NextResponse.json(await getWorkspacePolicy()),
});

export const PUT = operationRoute(updateWorkspacePolicyOperation);
