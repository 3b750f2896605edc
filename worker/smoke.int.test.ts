// The whole worker path on a real Temporal dev server and real databases:
// workflow → activity → Prisma.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Client, Connection } from "@temporalio/client";
import type { NativeConnection, Worker } from "@temporalio/worker";
import { parseEnv } from "../lib/config/env";
import { createDb, type Db } from "../lib/db/prisma";
import { seedDatabase } from "../lib/db/seed";
import { DEMO_USERS } from "../lib/auth/demo-users";
import { WORKFLOW_TYPES } from "../lib/temporal/constants";
import type { SmokeResult } from "../lib/smoke/schemas";
import { applyMigrations } from "../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../scripts/test-support/databases";
import { connectWorker, createZapWorker } from "./worker";

const providers = await testProviders();

describe.each(providers)("smoke workflow on $provider", ({ available, create }) => {
  const taskQueue = `it-smoke-${randomUUID()}`;
  let database: TestDatabase;
  let db: Db;
  let workerConnection: NativeConnection;
  let worker: Worker;
  let running: Promise<void>;
  let client: Client;
  let clientConnection: Connection;

  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
    await seedDatabase(db, { demo: true });
    const config = parseEnv({ TEMPORAL_ADDRESS: inject("temporalAddress"), DATABASE_URL: database.url });
    workerConnection = await connectWorker(config);
    ({ worker } = await createZapWorker({ config, db, connection: workerConnection, taskQueue }));
    running = worker.run();
    clientConnection = await Connection.connect({ address: inject("temporalAddress") });
    client = new Client({ connection: clientConnection });
  });

  afterAll(async () => {
    if (!available) return;
    worker.shutdown();
    await running;
    await workerConnection.close();
    await clientConnection.close();
    await db.$disconnect();
    await database.drop();
  });

  it.skipIf(!available)("runs the workflow, whose activity reads the database", async () => {
    const workflowId = `smoke-it-${randomUUID()}`;
    const result = await client.workflow.execute<(input: { name: string }) => Promise<SmokeResult>>(WORKFLOW_TYPES.smoke, {
      taskQueue,
      workflowId,
      args: [{ name: "Integration" }],
    });
    expect(result.workflowId).toBe(workflowId);
    expect(result.userCount).toBe(DEMO_USERS.length);
    expect(result.message).toContain("Hello, Integration!");
    expect(result.workerIdentity).toContain(taskQueue);

    // The activity sees live data, not a cached count.
    await db.user.create({ data: { email: `extra-${randomUUID()}@zap.local`, name: "Extra", role: "viewer" } });
    const second = await client.workflow.execute<(input: { name: string }) => Promise<SmokeResult>>(WORKFLOW_TYPES.smoke, {
      taskQueue,
      workflowId: `smoke-it-${randomUUID()}`,
      args: [{ name: "Again" }],
    });
    expect(second.userCount).toBe(DEMO_USERS.length + 1);
  });
});
