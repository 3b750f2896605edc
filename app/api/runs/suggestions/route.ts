// GET /api/runs/suggestions – what the runs list's filters suggest: { graphs, models, tools, webhooks: [{ id, name }] }, each alphabetically,
//   at most 200: the saved graphs' names and the models and tools some run used, the webhook endpoints. Session or API key, any role.
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { runFilterSuggestions } from "@/lib/runs/server/filter-suggestions";

export const GET = apiRoute({
  permission: "read",
  handler: async () => NextResponse.json(await runFilterSuggestions(), { headers: { "Cache-Control": "no-store" } }),
});
