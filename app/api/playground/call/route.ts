// POST /api/playground/call – run one model call alone: { model, temperature, maxOutputTokens, messages, tools?,
//   agentName?, runId?, spanId? } → { model, content, toolCalls (proposed, never executed), usage, costUsd, latencyMs,
//   finishReason, at }. No run is created and no tool runs. Builders and admins (runs:launch: it costs money).
//   More than 200 messages → 422; more than 1 MB of messages and tools → 413; no answer within the run timeout of a
//   model call (at most 300 s) → 504; a model that cannot be called (no API key, unknown provider) → 503 with its sentence. Audited as playground.called
//   (model and token counts, never the messages).
import { operationRoute } from "@/lib/http/server/operation-adapters";
import { playgroundCallOperation } from "@/lib/playground/server/operations";
import { PLAYGROUND_MAX_BODY_BYTES } from "@/lib/playground/schemas";

export const POST = operationRoute(playgroundCallOperation, { maxBodyBytes: PLAYGROUND_MAX_BODY_BYTES });
