"use server";
import { defineAction } from "../auth/server/action";
import { runIdInputSchema } from "../runs/schemas";
import { getEngine } from "../engine/server/engine";
import { recordAudit } from "../users/server/audit";

/** Cancels a run, its in-flight work and its sub-agent conversations (audited). */
export const cancelRunAction = defineAction({
  name: "cancel-run",
  permission: "runs:launch",
  input: runIdInputSchema,
  async handler({ input, user }) {
    await getEngine().cancelRun(input.runId);
    await recordAudit({ actorId: user.id, action: "run.cancelled", target: input.runId });
    return { cancelled: true };
  },
});
