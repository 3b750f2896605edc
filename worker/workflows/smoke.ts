import { proxyActivities, workflowInfo } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { SmokeResult, SmokeWorkflowInput } from "../../lib/smoke/schemas";

const { inspectDatabase, echoText } = proxyActivities<Activities>({
  startToCloseTimeout: "10 seconds",
  retry: { maximumAttempts: 3, initialInterval: "1 second", backoffCoefficient: 2 },
});

/** Proves the whole path: the workflow runs on the worker, whose activity reaches the database. */
export async function smokeWorkflow(input: SmokeWorkflowInput): Promise<SmokeResult> {
  const { userCount, workerIdentity } = await inspectDatabase();
  // The echo crosses Temporal four times: workflow input, activity input, activity result, workflow result.
  const echoed = input.echo ? await echoText(input.echo) : undefined;
  const { workflowId } = workflowInfo();
  return {
    workflowId,
    message: `Hello, ${input.name}! Temporal ran this workflow on the worker, which found ${userCount} users in the database.`,
    userCount,
    workerIdentity,
    completedAt: new Date().toISOString(),
    ...(echoed === undefined ? {} : { echo: echoed }),
  };
}
