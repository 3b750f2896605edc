// GET /api/policy – the workspace approval policy in force (anyone signed in).
// PUT /api/policy – replace it (admins only; audited with before and after; runs already started keep theirs).
import { NextResponse } from "next/server";
import { apiRoute, parseJsonBody } from "@/lib/http/server/api-route";
import { workspacePolicySchema } from "@/lib/policy/schemas";
import { getWorkspacePolicy, updateWorkspacePolicy } from "@/lib/policy/server/policy";
import { getDb } from "@/lib/db/server/db";

export const GET = apiRoute({
  permission: "read",
  handler: async () => NextResponse.json(await getWorkspacePolicy()),
});

export const PUT = apiRoute({
  permission: "policy:manage",
  handler: async ({ request, user }) => {
    const body = await parseJsonBody(request, workspacePolicySchema);
    return NextResponse.json(await updateWorkspacePolicy(getDb(), user, body));
  },
});
