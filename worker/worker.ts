import path from "node:path";
import { NativeConnection, Worker } from "@temporalio/worker";
import type { AppConfig } from "../lib/config/env";
import type { Db } from "../lib/db/prisma";
import { temporalConnectionOptions } from "../lib/temporal/connection-options";
import { createActivities } from "./activities";

export const WORKFLOWS_PATH = path.join(import.meta.dirname, "workflows", "index.ts");

export interface ZapWorkerDeps {
  config: AppConfig;
  db: Db;
  connection: NativeConnection;
  /** Overrides the task queue (tests run isolated queues on one server). */
  taskQueue?: string;
}

/** Connects to the configured Temporal with the worker's native client. */
export function connectWorker(config: AppConfig): Promise<NativeConnection> {
  return NativeConnection.connect(temporalConnectionOptions(config));
}

/** Builds the worker: bundled workflows plus activities built from their dependencies. */
export function createZapWorker({ config, db, connection, taskQueue }: ZapWorkerDeps): Promise<Worker> {
  return Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: taskQueue ?? config.temporal.taskQueue,
    workflowsPath: WORKFLOWS_PATH,
    activities: createActivities({ db }),
  });
}
