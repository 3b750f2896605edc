// The whole worker path on a real Temporal dev server and real databases:
// workflow → activity → Prisma; and payloads over Temporal Cloud's 2 MB limit,
// which the claim-check codec sends by reference.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkflowFailedError } from "@temporalio/client";
import { errorMessage, METADATA_ENCODING_KEY, type Payload } from "@temporalio/common";
import { DEMO_USERS } from "../lib/auth/demo-users";
import { CLAIM_CHECK_ENCODING, encodedPayloadSize } from "../lib/temporal/claim-check-codec";
import { WORKFLOW_TYPES } from "../lib/temporal/constants";
import type { SmokeResult, SmokeWorkflowInput } from "../lib/smoke/schemas";
import { testProviders } from "../scripts/test-support/databases";
import { startEngineHarness, type EngineHarness } from "../scripts/test-support/engine-harness";
import { TEMPORAL_CLOUD_BLOB_LIMITS } from "../scripts/test-support/temporal-global-setup";

type Smoke = (input: SmokeWorkflowInput) => Promise<SmokeResult>;

const THREE_MB = 3 * 1024 * 1024;
const providers = await testProviders();

/** Every payload object in a raw (still encoded) history. */
function payloadsIn(value: unknown, found: Payload[] = []): Payload[] {
  if (value === null || typeof value !== "object" || value instanceof Uint8Array) return found;
  if (Array.isArray(value)) {
    for (const item of value) payloadsIn(item, found);
    return found;
  }
  const record = value as Record<string, unknown>;
  if (record.data instanceof Uint8Array && typeof record.metadata === "object") found.push(record as Payload);
  for (const item of Object.values(record)) payloadsIn(item, found);
  return found;
}

function isReference(payload: Payload): boolean {
  return Buffer.from(payload.metadata?.[METADATA_ENCODING_KEY] ?? new Uint8Array()).toString() === CLAIM_CHECK_ENCODING;
}

// The three describes side by side (describe.concurrent), each on a harness of its own; the tests within one in order.
describe.concurrent.each(providers)("smoke workflow on $provider", ({ available, create }) => {
  // The harness runs the real worker (createZapWorker) with the claim-check codec, as npm start does.
  let harness: EngineHarness;

  beforeAll(async () => {
    if (!available) return;
    harness = await startEngineHarness({ database: await create() });
  });

  afterAll(async () => {
    if (available) await harness.stop();
  });

  it.skipIf(!available).sequential("runs the workflow, whose activity reads the database", async () => {
    const { client, db, taskQueue } = harness;
    const workflowId = `smoke-it-${randomUUID()}`;
    const result = await client.workflow.execute<Smoke>(WORKFLOW_TYPES.smoke, { taskQueue, workflowId, args: [{ name: "Integration" }] });
    expect(result.workflowId).toBe(workflowId);
    expect(result.userCount).toBe(DEMO_USERS.length);
    expect(result.message).toContain("Hello, Integration!");
    expect(result.workerIdentity).toContain(taskQueue);
    expect(result.echo, "nothing is echoed unless asked").toBeUndefined();

    // The activity sees live data, not a cached count.
    await db.user.create({ data: { email: `extra-${randomUUID()}@zap.local`, name: "Extra", role: "viewer" } });
    const second = await client.workflow.execute<Smoke>(WORKFLOW_TYPES.smoke, { taskQueue, workflowId: `smoke-it-${randomUUID()}`, args: [{ name: "Again" }] });
    expect(second.userCount).toBe(DEMO_USERS.length + 1);
  });

  it.skipIf(!available).sequential("a 3 MB input and a 3 MB result travel by reference, and no history payload exceeds the threshold", async () => {
    expect(THREE_MB, "the test payload must exceed the server's limit").toBeGreaterThan(TEMPORAL_CLOUD_BLOB_LIMITS.errorBytes);
    const text = randomBytes(THREE_MB / 2).toString("hex");
    const echoId = `smoke-large-${randomUUID()}`;
    const echoed = await harness.client.workflow.execute<Smoke>(WORKFLOW_TYPES.smoke, {
      taskQueue: harness.taskQueue,
      workflowId: echoId,
      args: [{ name: "Large", echo: { text, times: 1 } }],
    });
    expect(echoed.echo?.length).toBe(THREE_MB);
    expect(echoed.echo === text, "the 3 MB input must come back unchanged").toBe(true);

    // A small input whose result alone is 3 MB: built by the activity, returned by the workflow.
    const builtId = `smoke-large-${randomUUID()}`;
    const built = await harness.client.workflow.execute<Smoke>(WORKFLOW_TYPES.smoke, {
      taskQueue: harness.taskQueue,
      workflowId: builtId,
      args: [{ name: "Built", echo: { text: "zap!", times: THREE_MB / 4 } }],
    });
    expect(built.echo?.length).toBe(THREE_MB);
    expect(built.echo?.startsWith("zap!zap!")).toBe(true);
    expect(built.message).toContain("Hello, Built!");

    const threshold = harness.config.temporal.payloadOffloadBytes;
    for (const workflowId of [echoId, builtId]) {
      const payloads = payloadsIn(await harness.client.workflow.getHandle(workflowId).fetchHistory());
      const largest = Math.max(...payloads.map(encodedPayloadSize));
      expect(largest, `the largest payload in ${workflowId}'s history must be under ${threshold} bytes`).toBeLessThanOrEqual(threshold);
      expect(payloads.filter(isReference).length, `${workflowId}'s history must hold claim-check references`).toBeGreaterThan(0);
    }
    expect(await harness.db.payloadBlob.count(), "the large payloads must sit in PayloadBlob").toBeGreaterThan(0);
  });
});

describe.concurrent("the same payloads without the claim-check codec", () => {
  let harness: EngineHarness;

  beforeAll(async () => {
    harness = await startEngineHarness({ claimCheck: false });
  });

  afterAll(async () => {
    await harness.stop();
  });

  it.sequential("are refused: the server rejects a 3 MB input, and a 3 MB activity result fails the run", async () => {
    const start = harness.client.workflow.start<Smoke>(WORKFLOW_TYPES.smoke, {
      taskQueue: harness.taskQueue,
      workflowId: `smoke-refused-${randomUUID()}`,
      args: [{ name: "Large", echo: { text: "a".repeat(THREE_MB), times: 1 } }],
    });
    await expect(start, "the server must refuse a 3 MB workflow input").rejects.toMatchObject({ cause: { message: expect.stringMatching(/Blob data size exceeds limit/) } });

    // The worker's SDK checks the activity result against the limit the server
    // advertises (TMPRL1103) and fails the attempt instead of uploading it.

    const run = harness.client.workflow.execute<Smoke>(WORKFLOW_TYPES.smoke, {
      taskQueue: harness.taskQueue,
      workflowId: `smoke-refused-${randomUUID()}`,
      args: [{ name: "Built", echo: { text: "zap!", times: THREE_MB / 4 } }],
    });
    const failure = await run.then(
      () => expect.fail("a 3 MB activity result must not get through without the codec"),
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(errorMessage((failure as WorkflowFailedError).cause?.cause), "the activity must fail on the payload limit").toMatch(/exceeded the error limit/);
  });
});
