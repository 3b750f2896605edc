// POST /api/runs/:runId/fork { spanId, version?, model?, prompt?: { agent, systemPrompt }, editedToolResult?, editedModelOutput? }
//   – fork the run at one of its steps (a span of this run): the origin's task starts again on the version,
//   every step that ended before this one is reused from the recording, this step is live (or edited), and
//   the rest runs live → 201 { runId, tapeId, replayedSteps, compareUrl }. Unknown run or step 404, a run of
//   an inline graph 422, a deleted or archived agent 409, a missing version 422, an edit on the wrong kind of
//   step 422, unknown keys 422. Audited as run.forked. Builder role (runs:launch).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { forkRunOperation } from "@/lib/forks/server/fork-run";

export const POST = operationRoute(forkRunOperation, { path: (params: { runId: string }) => ({ runId: params.runId }), status: 201 });
