// The OTLP export into a real collector, Arize Phoenix: a run with a sub-agent,
// retried model calls and an approved tool call is exported by the worker,
// then read back from Phoenix's REST API: one trace id, each span with the
// OpenInference kind Phoenix read from it, every parent link resolved inside
// the trace, the GenAI attributes; exported again, Phoenix still holds one
// copy. Phoenix is provisioned like the Temporal CLI (scripts/test-support/phoenix.ts:
// $ZAP_PHOENIX, else the cached install, else installed into the cache), so
// this file always runs; where Phoenix cannot be had it fails, naming it.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { provisionPhoenix, startPhoenix, type PhoenixServer, type PhoenixSpan } from "../../scripts/test-support/phoenix";
import { ancestry, runTeamTask } from "../../scripts/test-support/otlp-team-run";
import { parseTelemetryEnv } from "../../lib/telemetry/config";
import { createRunExporter, type RunExporter } from "../../lib/telemetry/exporter";
import { traceIdFor } from "../../lib/telemetry/ids";

/** Phoenix's attributes, flattened to dotted keys ("gen_ai.usage.input_tokens"), whichever way it nests them. */
function flat(value: unknown, prefix = ""): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { [prefix]: value };
  return Object.assign({}, ...Object.entries(value).map(([k, v]) => flat(v, prefix ? `${prefix}.${k}` : k)));
}

/** The OpenInference kind Phoenix must show for each kind of ledger span; the others are CHAIN steps. */
const EXPECTED_KIND: Record<string, string> = { run: "AGENT", sub_agent: "AGENT", inference: "LLM", tool: "TOOL" };

const asLinks = (spans: PhoenixSpan[]) => spans.map((s) => ({ spanId: s.context.span_id, parentSpanId: s.parent_id, name: s.name }));

/** The one span of that name (several would make the assertions below pick one at random). */
function one(spans: PhoenixSpan[], name: string): PhoenixSpan {
  const found = spans.filter((s) => s.name === name);
  expect(found.length, `spans named "${name}" in Phoenix`).toBe(1);
  return found[0]!;
}

describe("OTLP export into Arize Phoenix", () => {
  let h: EngineHarness;
  let phoenix: PhoenixServer;
  let exporter: RunExporter;
  const project = `zap-it-${randomUUID().slice(0, 8)}`;
  beforeAll(async () => {
    // Phoenix takes the longest to come up: it starts while the engine harness does.
    const phoenixUp = provisionPhoenix().then((command) => startPhoenix({ command }));
    [phoenix, h] = await Promise.all([phoenixUp, startEngineHarness({ worker: false })]);
    const config = parseTelemetryEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: phoenix.tracesUrl, OTEL_BSP_SCHEDULE_DELAY: "50", OTEL_RESOURCE_ATTRIBUTES: `openinference.project.name=${project}` });
    exporter = createRunExporter({ db: h.db, config: config!, settleMs: 100 });
    await h.startWorker({ runExporter: exporter });
    // An install from scratch (no cache, no $ZAP_PHOENIX) takes minutes; npm test provisions it before this file.
  }, 900_000);
  afterAll(async () => {
    await exporter?.shutdown();
    await h?.stop();
    await phoenix?.stop();
  });

  it("reads back a run's spans: their kinds, one trace, every parent link, GenAI attributes, no duplicates on re-export", async () => {
    const runId = await runTeamTask(h);
    const spans = await eventually(
      () => phoenix.spans(project),
      // Every span the exporter sent, not only the first batch Phoenix stored: the parent links below need them all.
      (all) => all.some((s) => s.name === "execute_tool calculator") && all.some((s) => s.name === "invoke_agent lead") && all.length === exporter.stats().exportedSpans,
      30_000,
      `the run's spans in Phoenix (its log: ${phoenix.log().slice(-1000)})`,
    );
    expect(new Set(spans.map((s) => s.context.trace_id)), "one trace, the root run's").toEqual(new Set([traceIdFor(runId)]));

    // The kind Phoenix shows is the one it parsed from our openinference.span.kind attribute (which it then drops
    // from the attributes), span by span: runs and sub-agents are agents, model calls LLM calls, tools tools.
    const kinds = Object.fromEntries(["invoke_agent lead", "invoke_agent billing", "sub_agent billing", "execute_tool calculator", "approval for calculator"].map((name) => [name, one(spans, name).span_kind]));
    expect(kinds).toEqual({ "invoke_agent lead": "AGENT", "invoke_agent billing": "AGENT", "sub_agent billing": "AGENT", "execute_tool calculator": "TOOL", "approval for calculator": "CHAIN" });
    for (const span of spans) {
      const ledgerKind = String(flat(span.attributes)["zap.span.kind"]);
      expect(span.span_kind, `${span.name} (${ledgerKind}): its kind in Phoenix`).toBe(EXPECTED_KIND[ledgerKind] ?? "CHAIN");
    }

    // Parent links: one root (the lead's run), every other span's parent is a span of this trace.
    const ids = new Set(spans.map((s) => s.context.span_id));
    expect(spans.filter((s) => !s.parent_id).map((s) => s.name), "the trace's one root").toEqual(["invoke_agent lead"]);
    expect(spans.filter((s) => s.parent_id && !ids.has(s.parent_id)).map((s) => s.name), "spans whose parent Phoenix does not have").toEqual([]);
    const tool = one(spans, "execute_tool calculator");
    expect(one(spans, "approval for calculator").parent_id, "the approval wait under its tool call").toBe(tool.context.span_id);
    const path = ancestry(asLinks(spans), "execute_tool calculator");
    expect(path).toContain("invoke_agent billing");
    expect(path.slice(path.indexOf("invoke_agent billing") + 1), "billing's run under the lead's sub_agent span").toContain("sub_agent billing");
    expect(path.at(-1)).toBe("invoke_agent lead");

    const chat = spans.filter((s) => s.name === "chat demo/lead");
    expect(chat.length, "the lead's two model calls").toBe(2);
    for (const call of chat) {
      const attributes = flat(call.attributes);
      expect(attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "demo/lead", "zap.attempts": 2 });
      expect(attributes["gen_ai.usage.input_tokens"]).toEqual(expect.any(Number));
      expect(attributes["zap.retry_reason"]).toEqual(expect.any(String));
      expect(call.span_kind, "Phoenix reads a model call as an LLM span").toBe("LLM");
    }
    expect(flat(tool.attributes)).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "calculator" });
    expect(flat(one(spans, "approval for calculator").attributes)).toMatchObject({ "zap.approval.decided_by": "approver@zap.local" });

    // Exported again (the same ids): Phoenix keeps one copy of each span.
    const count = spans.length;
    expect(await exporter.exportRunTree(runId)).toBeGreaterThanOrEqual(count);
    await exporter.flush();
    const after = await phoenix.spans(project);
    expect(new Set(after.map((s) => s.context.span_id)).size).toBe(after.length);
    expect(after.length).toBe(count);
    expect(exporter.stats()).toMatchObject({ droppedSpans: 0, failedExports: 0 });
  });
});
