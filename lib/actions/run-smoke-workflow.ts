"use server";
import { defineAction } from "../http/server/action";
import { smokeInputSchema } from "../smoke/schemas";
import { runSmokeWorkflow } from "../smoke/server/smoke";
import { appendAudit } from "../audit/write";
import { getDb } from "../db/server/db";

/** Builders and admins run the smoke workflow end to end and get its result. */
export const runSmokeWorkflowAction = defineAction({
  name: "run-smoke-workflow",
  permission: "runs:launch",
  input: smokeInputSchema,
  async handler({ input, user }) {
    const result = await runSmokeWorkflow(input);
    await appendAudit(getDb(), { actorId: user.id, action: "smoke.run", target: result.workflowId });
    return result;
  },
});
