// GET /api/runs/list?status=&reason=&routedTo=&planOutcome=&graph=&version=&startedBy=&awaitingApproval=1&from=&to=&page=&pageSize=
//   &scheduleId=sch_…&webhook=whk_…&trigger=manual|schedule|webhook|experiment (what started the run, lib/runs/triggers.ts)
//   &q=&tool=&model=&view=stuck&stuckMinutes=&burnPerMinute=&sort=started|duration|tokens|cost&order=desc|asc
// – top-level runs from the ledger joined with Temporal's visibility, sub-runs grouped, usage rolled up.
//   q: full-text search (each row then has `match`, its snippet and span); tool/model: trees that used it;
//   view=stuck: "stuck or burning" (each row has `stuck`, why, and `waitingApproval`, the call it waits on, if any).
//   sort: newest first by default; duration, tokens and cost order the newest 2,000 matching runs by the figures the
//   list shows (tokens and cost of the whole tree; unpriced last), `sortNote` says when more matched.
//   A q without a word or over 200 characters, or an unknown sort or order → 422.
import { NextResponse } from "next/server";
import { apiRoute } from "@/lib/http/server/api-route";
import { runFiltersSchema } from "@/lib/runs/schemas";
import { listRunPage } from "@/lib/runs/server/runs";
import { ValidationError, zodIssues } from "@/lib/errors";

export const GET = apiRoute({
  permission: "read",
  handler: async ({ request }) => {
    const raw = Object.fromEntries([...request.nextUrl.searchParams].filter(([, v]) => v !== ""));
    const parsed = runFiltersSchema.safeParse(raw);
    if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
    return NextResponse.json(await listRunPage(parsed.data));
  },
});
