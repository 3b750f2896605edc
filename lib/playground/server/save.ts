import "server-only";
// "Save as draft" from the playground: the edited system prompt, model and
// temperature of one agent become a new version of its saved graph, through the
// designer's own save-agent-version operation (the same validation, the same
// stale-base 409, the same agent.version_saved audit row), noted as coming from
// the playground and the run. The product keeps no separate draft state: a
// saved version is the draft a builder then runs, compares or restores.
import type { z } from "zod";
import type { Db } from "../../db/prisma";
import { AppError } from "../../errors";
import { getVersion } from "../../agents/server/store";
import { saveVersionOperation } from "../../agents/server/operations";
import type { SessionUser } from "../../auth/server/session";
import type { savePlaygroundDraftSchema } from "../schemas";

export async function savePlaygroundDraft(db: Db, user: SessionUser, input: z.output<typeof savePlaygroundDraftSchema>): Promise<{ graphName: string; version: number; message: string }> {
  const base = await getVersion(db, input.graphName, input.baseVersion);
  if (!base.graph.agents.some((a) => a.name === input.agentName)) {
    throw new AppError("validation_failed", 422, `Version ${input.baseVersion} of "${input.graphName}" has no agent named "${input.agentName}"`, [{ path: "agentName", message: "not an agent of this version" }]);
  }
  const graph = {
    ...base.graph,
    agents: base.graph.agents.map((a) => (a.name === input.agentName ? { ...a, systemPrompt: input.systemPrompt, model: input.model ?? a.model, temperature: input.temperature } : a)),
  };
  const message = `From playground, run ${input.runId}${input.spanId ? ` (${input.spanId})` : ""}: ${input.agentName}'s prompt, model and temperature`;
  const saved = await saveVersionOperation.run({ input: { name: input.graphName, baseVersion: input.baseVersion, message: message.slice(0, 500), graph }, user });
  return { graphName: input.graphName, version: saved.version, message };
}
