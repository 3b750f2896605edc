"use server";
import { defineAction } from "../auth/server/action";
import { launchRunSchema } from "../runs/schemas";
import { launchRun } from "../runs/server/launch";
import { recordAudit } from "../users/server/audit";

/** Builders and admins start a run of a saved agent version; the dialog then opens its page. */
export const startRunAction = defineAction({
  name: "start-run",
  permission: "runs:launch",
  input: launchRunSchema,
  async handler({ input, user }) {
    const started = await launchRun(input, user);
    await recordAudit({ actorId: user.id, action: "run.started", target: started.runId, details: { agent: input.agent, version: input.version ?? null } });
    return started;
  },
});
