// Issue 23 §4: in production mode (ZAP_MODE=production) the encrypting payload
// codec is required and, once on, refuses plaintext. A process without a key
// does not start; a payload that arrives unencrypted (a workflow started on the
// task queue by a client without the key, as `temporal workflow start` would)
// is refused by the worker instead of run. Outside production, plaintext history
// written before the key was set stays readable.
import { spawn } from "node:child_process";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, Connection } from "@temporalio/client";
import { defaultPayloadConverter } from "@temporalio/common";
import { parseEnv } from "../config/env";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { encryptionCodecFor, PayloadCodecRequiredError, payloadCodecStartRefusal, zapPayloadCodecs } from "./payload-codecs";
import { PlaintextPayloadError } from "./encryption-codec";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const ROOT = path.resolve(import.meta.dirname, "../..");
const KEYS = `prod:${randomBytes(32).toString("base64")}`;
const plaintext = defaultPayloadConverter.toPayload({ name: "injected" });

/** Runs the worker's entry point (`npm run worker`) in `env` without any key; resolves with its exit code and output. */
function startWorkerProcess(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const childEnv = { ...process.env };
  for (const name of ["ZAP_ENCRYPTION_KEYS", "ZAP_PAYLOAD_KEY", "ZAP_MODE"]) delete childEnv[name];
  Object.assign(childEnv, env);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "worker/main.ts"], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("production mode without a payload key", () => {
  it("refuses to start: the configuration check, the codecs, and the worker process (exit 1, one clear line, before connecting)", async () => {
    const config = parseEnv({ ZAP_MODE: "production", AUTH_SECRET: "x".repeat(40) });
    expect(payloadCodecStartRefusal(config)).toMatch(/ZAP_MODE=production requires the encrypting payload codec: set ZAP_ENCRYPTION_KEYS/);
    expect(() => encryptionCodecFor(config)).toThrow(PayloadCodecRequiredError);
    expect(() => zapPayloadCodecs(null as never, config)).toThrow(PayloadCodecRequiredError);
    expect(payloadCodecStartRefusal(parseEnv({ ZAP_MODE: "production", ZAP_ENCRYPTION_KEYS: KEYS })), "with a ring it starts").toBeNull();
    expect(payloadCodecStartRefusal(parseEnv({ ZAP_MODE: "demo" })), "demo mode starts without one").toBeNull();

    // Nothing listens on this address: a worker that got past the check would hang or fail on the connection instead.
    const worker = await startWorkerProcess({ ZAP_MODE: "production", TEMPORAL_ADDRESS: "127.0.0.1:1", AUTH_SECRET: "x".repeat(40), DATABASE_URL: `file:${path.join(ROOT, ".data/never-created.db")}` });
    expect(worker.code).toBe(1);
    expect(worker.output).toMatch(/worker: ZAP_MODE=production requires the encrypting payload codec: set ZAP_ENCRYPTION_KEYS/);
  }, scaledWait(40_000));
});

describe("the payload codec in production mode", () => {
  it("refuses a plaintext payload with a clear error; outside production it passes through as before", async () => {
    const production = encryptionCodecFor(parseEnv({ ZAP_MODE: "production", ZAP_ENCRYPTION_KEYS: KEYS }))!;
    await expect(production.decode([plaintext])).rejects.toBeInstanceOf(PlaintextPayloadError);
    await expect(production.decode([plaintext])).rejects.toThrow(/refused an unencrypted Temporal payload \(encoding "json\/plain"\)/);
    // Its own payloads (a claim-check reference included: it is encrypted like any other) round-trip.
    const encoded = await production.encode([plaintext]);
    expect(await production.decode(encoded)).toEqual([plaintext]);
    const demo = encryptionCodecFor(parseEnv({ ZAP_MODE: "demo", ZAP_ENCRYPTION_KEYS: KEYS }))!;
    expect(await demo.decode([plaintext])).toEqual([plaintext]);
  });

  describe("against a real worker", () => {
    let h: EngineHarness;
    let connection: Connection;
    let raw: Client;
    beforeAll(async () => {
      h = await startEngineHarness({ env: { ZAP_MODE: "production", ZAP_ENCRYPTION_KEYS: KEYS } });
      connection = await Connection.connect({ address: h.config.temporal.address });
      raw = new Client({ connection }); // no codec, no key: what an outsider on the namespace has
    });
    afterAll(async () => {
      await connection?.close();
      await h?.stop();
    });

    it("an agent run with a tool call, its queries and its events work end to end (nothing of ours travels in plaintext)", async () => {
      const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator"] }), task: 'tool calculator {"expression":"1234*5678"}\nanswer: done' });
      const summary = await waitForStatus(h.engine, runId, ["completed"]);
      expect(summary.output).toBe("done");
      expect((await h.engine.getHistory(runId)).find((m) => m.role === "tool")?.content).toContain("7006652");
    });

    it("a workflow started with the key runs; one started in plaintext straight on the task queue is refused by the worker, not run", async () => {
      const ok = await h.client.workflow.execute("smokeWorkflow", { taskQueue: h.taskQueue, workflowId: `prod-ok-${randomUUID()}`, args: [{ name: "keyed" }] });
      expect((ok as { message: string }).message).toContain("Hello, keyed!");

      const handle = await raw.workflow.start("smokeWorkflow", { taskQueue: h.taskQueue, workflowId: `prod-plain-${randomUUID()}`, args: [{ name: "injected" }] });
      const deadline = Date.now() + 20_000;
      let failure: string | undefined;
      while (!failure && Date.now() < deadline) {
        const history = await handle.fetchHistory();
        failure = history.events?.find((e) => e.workflowTaskFailedEventAttributes)?.workflowTaskFailedEventAttributes?.failure?.message ?? undefined;
        if (!failure) await new Promise((r) => setTimeout(r, 250));
      }
      expect(failure).toMatch(/refused an unencrypted Temporal payload/);
      const history = await handle.fetchHistory();
      expect(history.events?.some((e) => e.activityTaskScheduledEventAttributes), "no activity of the injected run was scheduled").toBe(false);
      expect((await handle.describe()).status.name).toBe("RUNNING");
      await handle.terminate("test over");
    });
  });
});
