import "server-only";
// "Save as draft" from the playground: the edited system prompt, model,
// temperature and output cap of one agent become a DRAFT version of its saved
// graph, on top of the graph's default version, through the designer's own
// append (the same validation, the same stale-base 409, an agent.version_saved
// audit row marked draft), noted as coming from the playground and the run. A
// draft is not the graph's default (no run, dialog or form takes it unless it
// is named) until someone promotes it. An edit that changes nothing of the
// agent is refused (422): a version identical to its base is no draft of anything.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { AppError } from "../../errors";
import { appendVersion, getVersion } from "../../agents/server/store";
import type { SessionUser } from "../../auth/server/session";
import { applyDraft, draftChanges, nothingToSaveMessage } from "../draft";
import type { PlaygroundDraftSaved, savePlaygroundDraftSchema } from "../schemas";

export async function savePlaygroundDraft(db: Db, user: SessionUser, input: z.output<typeof savePlaygroundDraftSchema>): Promise<PlaygroundDraftSaved> {
  const base = await getVersion(db, input.graphName, input.baseVersion);
  const agent = base.graph.agents.find((a) => a.name === input.agentName);
  if (!agent) {
    throw new AppError("validation_failed", 422, `Version ${input.baseVersion} of "${input.graphName}" has no agent named "${input.agentName}"`, [{ path: "agentName", message: "not an agent of this version" }]);
  }
  const settings = { systemPrompt: agent.systemPrompt, model: agent.model, temperature: agent.temperature, maxOutputTokens: agent.maxOutputTokens };
  const edit = {
    systemPrompt: input.systemPrompt,
    temperature: input.temperature,
    ...(input.model !== undefined ? { model: input.model } : {}),
    ...(input.maxOutputTokens !== undefined ? { maxOutputTokens: input.maxOutputTokens } : {}),
  };
  const changes = draftChanges(settings, edit);
  if (changes.length === 0) throw new AppError("validation_failed", 422, nothingToSaveMessage(input.agentName, input.baseVersion));
  const after = applyDraft(settings, edit);
  const graph = { ...base.graph, agents: base.graph.agents.map((a) => (a.name === input.agentName ? { ...a, ...after } : a)) };
  const message = `From playground, run ${input.runId}${input.spanId ? ` (${input.spanId})` : ""}: ${input.agentName}'s ${changes.map((c) => c.label).join(", ")}`;
  const saved = await appendVersion(db, input.graphName, { baseVersion: input.baseVersion, message: message.slice(0, 500), graph, draft: true }, user);
  return { graphName: input.graphName, version: saved.version, draft: true, baseVersion: input.baseVersion, message, changes };
}
