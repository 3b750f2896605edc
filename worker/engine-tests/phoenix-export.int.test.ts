// The OTLP export into a real collector, Arize Phoenix: a run with a sub-agent,
// retried model calls and an approved tool call is exported by the worker,
// then read back from Phoenix's REST API with its GenAI attributes, one trace
// id and its parent links; exported again, Phoenix still holds one copy.
// Collected only where Phoenix is installed (vitest.config.ts; docs/testing.md).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { findPhoenix, startPhoenix, type PhoenixServer, type PhoenixSpan } from "../../scripts/test-support/phoenix";
import { ancestry, runTeamTask } from "../../scripts/test-support/otlp-team-run";
import { parseTelemetryEnv } from "../../lib/telemetry/config";
import { createRunExporter, type RunExporter } from "../../lib/telemetry/exporter";
import { traceIdFor } from "../../lib/telemetry/ids";

const command = findPhoenix();
if (!command) throw new Error("Phoenix is not installed: `npx tsx scripts/test-support/phoenix.ts install` (vitest.config.ts collects this file only where it is)");

/** Phoenix's attributes, flattened to dotted keys ("gen_ai.usage.input_tokens"), whichever way it nests them. */
function flat(value: unknown, prefix = ""): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { [prefix]: value };
  return Object.assign({}, ...Object.entries(value).map(([k, v]) => flat(v, prefix ? `${prefix}.${k}` : k)));
}

const asLinks = (spans: PhoenixSpan[]) => spans.map((s) => ({ spanId: s.context.span_id, parentSpanId: s.parent_id, name: s.name }));

describe("OTLP export into Arize Phoenix", () => {
  let h: EngineHarness;
  let phoenix: PhoenixServer;
  let exporter: RunExporter;
  const project = `zap-it-${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    phoenix = await startPhoenix({ command: command! });
    const config = parseTelemetryEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: phoenix.tracesUrl, OTEL_BSP_SCHEDULE_DELAY: "50", OTEL_RESOURCE_ATTRIBUTES: `openinference.project.name=${project}` });
    h = await startEngineHarness({ worker: false });
    exporter = createRunExporter({ db: h.db, config: config!, settleMs: 100 });
    await h.startWorker({ runExporter: exporter });
  }, 180_000);
  afterAll(async () => {
    await exporter?.shutdown();
    await h?.stop();
    await phoenix?.stop();
  });

  it("receives a run's spans: GenAI attributes, one trace, the sub-run under its parent, no duplicates on re-export", async () => {
    const runId = await runTeamTask(h);
    const spans = await eventually(
      () => phoenix.spans(project),
      (all) => all.some((s) => s.name === "execute_tool calculator") && all.some((s) => s.name === "invoke_agent lead"),
      30_000,
      "the run's spans in Phoenix",
    );
    expect(new Set(spans.map((s) => s.context.trace_id)), "one trace, the root run's").toEqual(new Set([traceIdFor(runId)]));

    const chat = spans.filter((s) => s.name === "chat demo/lead");
    expect(chat.length).toBe(2);
    for (const call of chat) {
      const attributes = flat(call.attributes);
      expect(attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "demo/lead", "zap.attempts": 2 });
      expect(attributes["gen_ai.usage.input_tokens"]).toEqual(expect.any(Number));
      expect(attributes["zap.retry_reason"]).toEqual(expect.any(String));
      expect(call.span_kind, "Phoenix reads the OpenInference kind").toBe("LLM");
    }
    const tool = spans.find((s) => s.name === "execute_tool calculator")!;
    expect(flat(tool.attributes)).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "calculator" });
    const approval = spans.find((s) => s.name === "approval for calculator")!;
    expect(flat(approval.attributes)).toMatchObject({ "zap.approval.decided_by": "approver@zap.local" });

    const path = ancestry(asLinks(spans), "execute_tool calculator");
    expect(path).toContain("invoke_agent billing");
    expect(path).toContain("sub_agent billing");
    expect(path.at(-1)).toBe("invoke_agent lead");

    // Exported again (the same ids): Phoenix keeps one copy of each span.
    const count = spans.length;
    expect(await exporter.exportRunTree(runId)).toBeGreaterThanOrEqual(count);
    await exporter.flush();
    const after = await phoenix.spans(project);
    expect(new Set(after.map((s) => s.context.span_id)).size).toBe(after.length);
    expect(exporter.stats()).toMatchObject({ droppedSpans: 0, failedExports: 0 });
  });
});
