// The OTLP export end to end, against a small in-process OTLP/HTTP receiver
// (scripts/test-support/otlp-receiver.ts decodes the protobuf): a real run
// with a sub-agent, a retried model call and an approved tool call arrives as
// one trace with GenAI attributes and parent links; with the endpoint down the
// run completes all the same and the spans are counted as dropped.
// The same against Arize Phoenix: phoenix-export.int.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../../scripts/test-support/otlp-receiver";
import { testProviders } from "../../scripts/test-support/databases";
import { freePort } from "../../scripts/test-support/ports";
import { parseTelemetryEnv } from "../../lib/telemetry/config";
import { createRunExporter, type RunExporter } from "../../lib/telemetry/exporter";
import { traceIdFor } from "../../lib/telemetry/ids";
import { readExportStats } from "../../lib/telemetry/stats-store";
import { ancestry, runTeamTask } from "../../scripts/test-support/otlp-team-run";

const providers = await testProviders();

function one(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((s) => s.name === name);
  expect(found.length, `spans named "${name}"`).toBeGreaterThanOrEqual(1);
  return found[0]!;
}

describe.each(providers)("OTLP export on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let receiver: OtlpReceiver;
  let exporter: RunExporter;
  beforeAll(async () => {
    if (!available) return;
    receiver = await startOtlpReceiver();
    const config = parseTelemetryEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "50", OTEL_SERVICE_NAME: "zap-test" });
    h = await startEngineHarness({ database: await create(), worker: false });
    exporter = createRunExporter({ db: h.db, config: config!, settleMs: 100 });
    await h.startWorker({ runExporter: exporter });
  });
  afterAll(async () => {
    if (!available) return;
    await exporter.shutdown();
    await h.stop();
    await receiver.close();
  });

  it.skipIf(!available)("sends a finished run tree as one trace: GenAI attributes, attempts, the approver, sub-run under its parent", async () => {
    const runId = await runTeamTask(h);
    const traceId = traceIdFor(runId);
    const trace = await eventually(
      async () => receiver.spans.filter((s) => s.traceId === traceId),
      (spans) => spans.some((s) => s.name === "execute_tool calculator") && spans.some((s) => s.name === "invoke_agent lead"),
      20_000,
      "the run's spans at the receiver",
    );
    expect(new Set(trace.map((s) => s.resource["service.name"]))).toEqual(new Set(["zap-test"]));

    const chat = trace.filter((s) => s.name === "chat demo/lead");
    expect(chat.length, "the lead's two model calls").toBe(2);
    for (const call of chat) {
      expect(call.kind, "a model call is a client span").toBe(3);
      expect(call.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "demo/lead", "gen_ai.provider.name": "demo", "zap.attempts": 2 });
      expect(call.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
      expect(call.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
      expect(call.attributes["zap.retry_reason"], "why the first attempt was retried").toEqual(expect.any(String));
      expect(call.endNs).toBeGreaterThanOrEqual(call.startNs);
    }

    const tool = one(trace, "execute_tool calculator");
    expect(tool.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "calculator", "zap.outcome": "ok" });
    expect(tool.attributes["zap.run.id"]).toMatch(new RegExp(`^${runId}\\.billing-`));
    expect(tool.attributes["zap.root_run.id"]).toBe(runId);
    const wait = one(trace, "approval for calculator");
    expect(wait.attributes).toMatchObject({ "zap.approval.decided_by": "approver@zap.local", "zap.approval.status": "approved", "zap.approval.reason": "checked" });
    expect(wait.parentSpanId).toBe(tool.spanId);

    // The tool runs in billing's run, billing's run under the lead's sub_agent span, all under the lead's run.
    const path = ancestry(trace, "execute_tool calculator");
    expect(path).toContain("invoke_agent billing");
    expect(path.slice(path.indexOf("invoke_agent billing") + 1)).toContain("sub_agent billing");
    expect(path.at(-1)).toBe("invoke_agent lead");
    expect(one(trace, "invoke_agent lead").attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "lead", "temporal.workflow.id": runId, "zap.generation": 0 });
    expect(new Set(trace.map((s) => s.spanId)).size, "no span sent twice within the export").toBe(trace.length);
    expect(exporter.stats()).toMatchObject({ droppedSpans: 0, failedExports: 0, droppedRuns: 0 });

    // A tree larger than the queue waits for room while the endpoint takes batches: nothing is dropped.
    const small = createRunExporter({ db: h.db, config: parseTelemetryEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.url, OTEL_BSP_MAX_QUEUE_SIZE: "4", OTEL_BSP_SCHEDULE_DELAY: "50" })!, settleMs: 0 });
    try {
      const sent = await small.exportRunTree(runId);
      await small.flush();
      expect(sent).toBeGreaterThan(4);
      expect(small.stats()).toMatchObject({ exportedSpans: sent, droppedSpans: 0 });
    } finally {
      await small.shutdown();
    }
  });
});

describe.each(providers.filter((p) => p.provider === "sqlite"))("OTLP export with the endpoint down ($provider)", ({ available, create }) => {
  let h: EngineHarness;
  let exporter: RunExporter;
  beforeAll(async () => {
    if (!available) return;
    // Nothing listens there: every batch (4 spans, the queue's size) fails to connect and is counted.
    const closed = `http://127.0.0.1:${await freePort()}/v1/traces`;
    const config = parseTelemetryEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: closed, OTEL_BSP_SCHEDULE_DELAY: "50", OTEL_BSP_MAX_QUEUE_SIZE: "4", OTEL_EXPORTER_OTLP_TIMEOUT: "1000" });
    h = await startEngineHarness({ database: await create(), worker: false });
    exporter = createRunExporter({ db: h.db, config: config!, settleMs: 100 });
    await h.startWorker({ runExporter: exporter });
  });
  afterAll(async () => {
    if (!available) return;
    await exporter.shutdown();
    await h.stop();
  });

  it.skipIf(!available)("completes the run as usual and counts every span as dropped", async () => {
    const runId = await runTeamTask(h);
    const summary = await h.engine.getRun(runId);
    expect(summary).toMatchObject({ status: "completed", output: "team consulted" });
    const stats = await eventually(async () => exporter.stats(), (s) => s.droppedSpans >= 8 && s.failedExports >= 1, 20_000, "the drops to be counted");
    expect(stats.exportedSpans).toBe(0);
    expect(stats.lastFailureAt).not.toBeNull();
    // Where a user sees them: the shared row GET /api/health reports (lib/health/server/health.ts).
    await exporter.saveStats();
    const shown = await readExportStats(h.db);
    expect(shown?.droppedSpans).toBeGreaterThanOrEqual(stats.droppedSpans);
    expect(shown?.failedExports).toBeGreaterThanOrEqual(1);
  });
});
