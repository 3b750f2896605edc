// POST /api/playground/draft – save the playground's edit as a DRAFT version of the agent's graph:
//   { runId, spanId?, graphName, agentName, baseVersion, systemPrompt, model? (absent: the agent keeps its own),
//   temperature, maxOutputTokens? } → 201 { graphName, version, draft: true, baseVersion, message, changes }.
//   A draft is not the graph's default until promoted (POST /api/agents/:name/versions/:version/promote).
//   Nothing of the agent changed → 422 "Nothing to save"; a version that is not a draft saved since baseVersion → 409;
//   validation 422; audited agent.version_saved (draft). Builders and admins (agents:edit).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { savePlaygroundDraftOperation } from "@/lib/playground/server/operations";

export const POST = operationRoute(savePlaygroundDraftOperation, { status: 201 });
