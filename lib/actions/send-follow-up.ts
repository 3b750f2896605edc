"use server";
import { defineAction } from "../auth/server/action";
import { followUpSchema } from "../runs/schemas";
import { getEngine } from "../engine/server/engine";
import { recordAudit } from "../users/server/audit";

/** Sends a follow-up message to a run (a signal while open, a continuation once completed). */
export const sendFollowUpAction = defineAction({
  name: "send-follow-up",
  permission: "runs:launch",
  input: followUpSchema,
  async handler({ input, user }) {
    await getEngine().sendMessage(input.runId, input.content);
    await recordAudit({ actorId: user.id, action: "run.follow_up", target: input.runId });
    return { sent: true };
  },
});
