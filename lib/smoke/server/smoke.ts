import "server-only";
import { randomUUID } from "node:crypto";
import { getTemporalClient } from "../../temporal/server/client";
import { getConfig } from "../../config/server/config";
import { WORKFLOW_ID_PREFIXES, WORKFLOW_TYPES } from "../../temporal/constants";
import { AppError } from "../../errors";
import type { SmokeInput, SmokeResult } from "../schemas";

const RESULT_TIMEOUT_MS = 20_000;

/** Starts the smoke workflow and waits (bounded) for its result. */
export async function runSmokeWorkflow(input: SmokeInput): Promise<SmokeResult> {
  const config = getConfig();
  const workflowId = `${WORKFLOW_ID_PREFIXES.smoke}-${randomUUID()}`;
  try {
    await getTemporalClient().workflow.start(WORKFLOW_TYPES.smoke, {
      taskQueue: config.temporal.taskQueue,
      workflowId,
      args: [input],
      workflowExecutionTimeout: "1 minute",
    });
  } catch (error) {
    console.error("smoke workflow could not start:", error);
    throw new AppError("unavailable", 503, "Temporal is not reachable; check /api/health");
  }
  const handle = getTemporalClient().workflow.getHandle(workflowId);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      handle.result() as Promise<SmokeResult>,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new AppError("timeout", 504, `The workflow ${workflowId} started but no worker finished it within 20 s; is the worker running?`)),
          RESULT_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
