// POST /api/playground/draft – save the playground's edit as a new version of the agent's graph:
//   { runId, spanId?, graphName, agentName, baseVersion, systemPrompt, model? (absent: the agent keeps its own), temperature }
//   → 201 { graphName, version, message }.
//   The designer's save-agent-version operation does it (validation 422, a newer version since baseVersion 409, audited
//   agent.version_saved), noted "From playground, run <id>". Builders and admins (agents:edit).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { savePlaygroundDraftOperation } from "@/lib/playground/server/operations";

export const POST = operationRoute(savePlaygroundDraftOperation, { status: 201 });
