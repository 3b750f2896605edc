// Guardrails on the real engine (issue 40 §1): an input guardrail blocks a task
// with a card number or masks it everywhere the run is recorded; a tool_call
// guardrail sends a large transfer to the inbox; an output judge asks for a
// rewrite; a worker stopped mid-judge leaves the check recorded once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import type { RunEvent, TraceNode } from "../../lib/contract/types";
import { createModelRegistry, type ModelRegistry } from "../models/registry";
import type { ModelProvider } from "../models/types";
import { patchMarkers } from "../versioning/patch-census";
import { readLedgerTree } from "../../lib/telemetry/ledger-tree";
import { mapRunTree } from "../../lib/telemetry/mapping";
import { createMonitor, listAlerts } from "../../lib/monitors/server/store";

const providers = await testProviders();

/** A Luhn-valid card number, as a customer would type it and as it is stored. */
const CARD = "4111 1111 1111 1111";
const CARD_DIGITS = "4111111111111111";

type GuardrailEvent = Extract<RunEvent, { type: "guardrail_checked" }>;

const flat = (nodes: TraceNode[]): TraceNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);

const cardGuardrail = (action: "block" | "mask") => ({ name: "no-cards", kind: "input", check: { type: "pii", detectors: ["card"] }, action });

describe.each(providers)("guardrails on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let stopWorker: () => Promise<void>;
  let approver: { id: string; email: string; role: string };

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ worker: false, database: await create(), policy: { exemptTools: ["ledger_transfer"] } });
    stopWorker = await h.startWorker();
    const u = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    approver = { id: u.id, email: u.email, role: u.role };
  });
  afterAll(async () => {
    if (available) await h.stop();
  });

  /** Tool executions the run's history holds as activities of their own (regular, or local ones' markers): none when the model call ran them. */
  const toolActivities = async (runId: string) => {
    const events = (await h.client.workflow.getHandle(runId).fetchHistory()).events ?? [];
    return events.filter((e) => {
      if (e.activityTaskScheduledEventAttributes?.activityType?.name === "executeTool") return true;
      const marker = e.markerRecordedEventAttributes;
      if (marker?.markerName !== "core_local_activity") return false;
      return Object.values(marker.details ?? {}).some((payloads) => (payloads.payloads ?? []).some((p) => Buffer.from(p.data ?? new Uint8Array()).toString("utf8").includes("executeTool")));
    }).length;
  };
  const guardrailEvents = async (runId: string) => (await h.engine.getEvents(runId)).filter((e): e is GuardrailEvent => e.type === "guardrail_checked");

  it.skipIf(!available)("blocks a task with a card number: guardrail_tripped names the guardrail, in the summary and the trace, and the task is never stored", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ guardrails: [cardGuardrail("block")] }), task: `Refund my card ${CARD} please\nanswer: refunded` });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error?.reason).toBe("guardrail_tripped");
    expect(summary.error?.message).toMatch(/guardrail "no-cards" \(input, pii\)/);
    expect(summary.error?.message).not.toContain("4111");
    const span = flat(await h.engine.getTrace(runId)).find((s) => s.kind === "guardrail");
    expect(span).toMatchObject({ name: "no-cards", status: "error", attributes: { verdict: "tripped", guardrailKind: "input", check: "pii", action: "block", detectors: "card" } });
    const [event] = await guardrailEvents(runId);
    expect(event).toMatchObject({ guardrail: "no-cards", tripped: true, detectors: ["card"] });
    // No model was asked: the run ended before its first iteration.
    expect((await h.engine.getEvents(runId)).some((e) => e.type === "inference_started")).toBe(false);
    const row = await h.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(row.task).toMatch(/^\[withheld: guardrail "no-cards"/);
    expect(row.errorReason).toBe("guardrail_tripped");
    // The dashboard's and monitors' series: trips per guardrail.
    await eventually(
      () => h.db.metricRollup.aggregate({ _sum: { count: true }, where: { series: "guardrail_trips", label: "no-cards", resolution: 1, scope: 1 } }),
      (sum) => (sum._sum.count ?? 0) >= 1,
      20_000,
      "the trip to reach the guardrail_trips series",
    );
    // A monitor on that series (trips of this guardrail in the last hour) fires on the monitors' next tick.
    const admin = await h.db.user.findUniqueOrThrow({ where: { email: "admin@zap.local" } });
    const monitor = await createMonitor(h.db, { name: "cards blocked", series: "guardrail_trips", label: "no-cards", comparator: "gt", threshold: 0, windowMinutes: 60 }, { id: admin.id });
    await h.client.workflow.execute("monitorsTickWorkflow", { taskQueue: h.taskQueue, workflowId: `guardrail-monitor-tick-${monitor.id}`, args: [] });
    const [alert] = await listAlerts(h.db, { monitorId: monitor.id });
    expect(alert, "the monitor on guardrail_trips fired").toMatchObject({ state: "firing" });
    expect(alert?.valueAtFire, "the trips it counted").toBeGreaterThanOrEqual(1);
  });

  it.skipIf(!available)("masks the card number: the run completes and the digits appear in none of its ledger rows", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ guardrails: [cardGuardrail("mask")] }), task: `Refund my card ${CARD} please` });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    // The demo agent echoes its task: it only ever saw the masked one.
    expect(summary.output).toContain("[redacted card]");
    const row = await h.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(row.task).toBe("Refund my card [redacted card] please");
    const history = await h.engine.getHistory(runId);
    expect(history.find((m) => m.role === "user")?.content).toBe("Refund my card [redacted card] please");
    const [event] = await guardrailEvents(runId);
    expect(event).toMatchObject({ guardrail: "no-cards", action: "mask", tripped: true });
    // Every ledger row of the run, including the search index derived from it.
    await eventually(() => h.db.searchDocument.count({ where: { runId } }), (n) => n > 0, 20_000, "the run to be indexed");
    const stored = [
      row.task,
      row.output ?? "",
      ...(await h.db.runEvent.findMany({ where: { runId } })).map((r) => r.data),
      ...(await h.db.runMessage.findMany({ where: { runId } })).map((r) => r.data),
      ...(await h.db.runSpan.findMany({ where: { runId } })).map((r) => r.data ?? ""),
      ...(await h.db.searchDocument.findMany({ where: { runId } })).map((r) => r.text),
    ].join("\n");
    expect(stored).toContain("[redacted card]");
    expect(stored).not.toContain(CARD);
    expect(stored).not.toContain(CARD_DIGITS);
    // What the OpenTelemetry export sends for the run (lib/telemetry/exporter.ts maps the ledger tree so): the
    // guardrail's span with its verdict, and never the number (the export carries names, verdicts and usage; a
    // later change that exports text must export the masked text).
    const tree = await readLedgerTree(h.db, runId);
    expect(tree, "the run's ledger tree").not.toBeNull();
    const spans = mapRunTree(tree ?? [], Date.now());
    expect(spans.find((span) => span.name === "no-cards"), "the guardrail's span is exported").toBeDefined();
    const exported = JSON.stringify(spans);
    expect(exported).toContain("tripped");
    expect(exported).not.toContain(CARD);
    expect(exported).not.toContain(CARD_DIGITS);
  });

  it.skipIf(!available)("masks a follow-up before the turn records it, and a typed answer in its text, data and return call", async () => {
    const graph = singleAgentGraph({
      outputSchema: { schema: { type: "object", properties: { reply: { type: "string" } }, required: ["reply"] } },
      guardrails: [cardGuardrail("mask"), { name: "no-emails-out", kind: "output", check: { type: "pii", detectors: ["email"] }, action: "mask" }],
    });
    const { runId } = await h.engine.startRun({ graph, task: 'return {"reply":"write to ops@example.com"}' });
    const first = await waitForStatus(h.engine, runId, ["completed"]);
    expect(first.outputData).toEqual({ reply: "write to [redacted email]" });
    await h.engine.sendMessage(runId, `my card is ${CARD}\nreturn {"reply":"noted"}`);
    await eventually(() => h.engine.getEvents(runId), (events) => events.filter((e) => e.type === "run_completed").length === 2, 20_000, "the follow-up's answer");
    const followUp = (await h.engine.getEvents(runId)).find((e) => e.type === "user_message");
    expect(followUp?.type === "user_message" && followUp.content).toBe('my card is [redacted card]\nreturn {"reply":"noted"}');
    // The task holds the address (the input guardrail masks cards only); everything the agent answered holds none.
    const answered = [
      ...(await h.db.runEvent.findMany({ where: { runId, type: "run_completed" } })).map((r) => r.data),
      ...(await h.db.runMessage.findMany({ where: { runId, role: { in: ["assistant", "tool"] } } })).map((r) => r.data),
      (await h.db.run.findUniqueOrThrow({ where: { id: runId } })).outputData ?? "",
    ].join("\n");
    expect(answered).toContain("[redacted email]");
    expect(answered).not.toContain("ops@example.com");
    const stored = [...(await h.db.runEvent.findMany({ where: { runId } })).map((r) => r.data), ...(await h.db.runMessage.findMany({ where: { runId } })).map((r) => r.data)].join("\n");
    expect(stored).not.toContain(CARD);
    await h.engine.cancelRun(runId).catch(() => undefined);
  });

  it.skipIf(!available)("masks a tool result before the model and the ledger see it", async () => {
    const graph = singleAgentGraph({ tools: ["calculator"], guardrails: [{ name: "no-answers", kind: "tool_result", tools: ["calc*"], check: { type: "regex", pattern: "42" }, action: "mask" }] });
    const { runId } = await h.engine.startRun({ graph, task: 'tool calculator {"expression":"6*7"}' });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    const completed = (await h.engine.getEvents(runId)).find((e) => e.type === "tool_call_completed");
    expect(completed).toMatchObject({ tool: "calculator", outcome: "ok" });
    expect(completed?.type === "tool_call_completed" && completed.result).toContain("[redacted]");
    const toolMessage = (await h.engine.getHistory(runId)).find((m) => m.role === "tool");
    expect(toolMessage?.content).toContain("[redacted]");
    expect(toolMessage?.content).not.toContain("42");
    // The demo agent summarises the results it saw: the masked one.
    expect(summary.output).not.toContain("42");
    const check = flat(await h.engine.getTrace(runId)).find((s) => s.kind === "guardrail");
    expect(check).toMatchObject({ name: "no-answers", attributes: { guardrailKind: "tool_result", tool: "calculator", verdict: "tripped", action: "mask" } });
    // Under the tool's span, whose call it screened.
    expect(flat(await h.engine.getTrace(runId)).find((s) => s.id === check?.parentId)?.kind).toBe("tool");
    // The calculator ran inside the model call (issue 40 §4: a watched call costs no round trip of its own); its
    // result was still screened before the model saw it.
    expect(await toolActivities(runId), "tool activities in the run's history").toBe(0);
  });

  it.skipIf(!available)("a call whose deterministic tool_call checks pass runs inside the model call; one they trip runs in the workflow's sight", async () => {
    const graph = singleAgentGraph({ tools: ["calculator"], guardrails: [{ name: "flag-sevens", kind: "tool_call", tools: ["calculator"], check: { type: "regex", pattern: "7" }, action: "log" }] });
    const plain = await h.engine.startRun({ graph, task: 'tool calculator {"expression":"6*8"}' });
    const flagged = await h.engine.startRun({ graph, task: 'tool calculator {"expression":"6*7"}' });
    expect((await waitForStatus(h.engine, plain.runId, ["completed"])).output).toContain("48");
    expect((await waitForStatus(h.engine, flagged.runId, ["completed"])).output).toContain("42");
    // Both calls' checks are recorded, each once, whichever way the call ran.
    expect((await guardrailEvents(plain.runId)).map((e) => [e.guardrail, e.tripped])).toEqual([["flag-sevens", false]]);
    expect((await guardrailEvents(flagged.runId)).map((e) => [e.guardrail, e.tripped])).toEqual([["flag-sevens", true]]);
    expect(await toolActivities(plain.runId), "the passing call ran inside the model call").toBe(0);
    expect(await toolActivities(flagged.runId), "the flagged call ran as an activity of its own, after its check").toBe(1);
  });

  const transferGraph = () =>
    singleAgentGraph({
      tools: ["ledger_transfer"],
      guardrails: [{ name: "large-transfers", kind: "tool_call", tools: ["ledger_*"], check: { type: "json_schema", schema: { type: "object", properties: { amount: { type: "number", maximum: 100 } } } }, action: "inbox" }],
    });
  const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount},"memo":"guardrail test"}\nanswer: done`;

  it.skipIf(!available)("a tool_call guardrail lets a small transfer run and sends a large one to the inbox: approved, it runs once", async () => {
    const small = await h.engine.startRun({ graph: transferGraph(), task: transfer(20) });
    await waitForStatus(h.engine, small.runId, ["completed"]);
    expect((await h.db.ledgerEntry.findMany({ where: { runId: small.runId } })).map((e) => e.amountCents)).toEqual([2000]);
    expect(await guardrailEvents(small.runId)).toMatchObject([{ guardrail: "large-transfers", tripped: false, tool: "ledger_transfer" }]);

    const large = await h.engine.startRun({ graph: transferGraph(), task: transfer(150) });
    await waitForStatus(h.engine, large.runId, ["awaiting_approval"]);
    const [approval] = await h.engine.getPendingApprovals(large.runId);
    expect(approval).toMatchObject({ toolName: "ledger_transfer", guardrail: "large-transfers", arguments: { amount: 150 } });
    // The approver reads why: the check and its verdict's sentence, which quotes nothing from the arguments.
    expect(approval?.guardrailVerdict?.check).toBe("json_schema");
    expect(approval?.guardrailVerdict?.reason).toMatch(/^The text does not match the schema \(1 problem; the first: .*amount.*100\)\.$/);
    expect(await h.db.ledgerEntry.count({ where: { runId: large.runId } })).toBe(0);
    await h.engine.decideApproval(large.runId, { approvalId: approval?.id ?? "", approved: true, reason: "checked with the customer", decidedBy: approver });
    await waitForStatus(h.engine, large.runId, ["completed"]);
    expect((await h.db.ledgerEntry.findMany({ where: { runId: large.runId } })).map((e) => e.amountCents)).toEqual([15000]);
    const wait = flat(await h.engine.getTrace(large.runId)).find((s) => s.kind === "approval_wait");
    expect(wait?.name).toBe("approval for ledger_transfer (guardrail large-transfers)");
  });

  it.skipIf(!available)("rejecting the large transfer refuses the call as a rejected gated call, and the run goes on", async () => {
    const { runId } = await h.engine.startRun({ graph: transferGraph(), task: transfer(500) });
    await waitForStatus(h.engine, runId, ["awaiting_approval"]);
    const [approval] = await h.engine.getPendingApprovals(runId);
    await h.engine.decideApproval(runId, { approvalId: approval?.id ?? "", approved: false, reason: "too much", decidedBy: approver });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("done");
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
    const completed = (await h.engine.getEvents(runId)).find((e) => e.type === "tool_call_completed");
    expect(completed).toMatchObject({ outcome: "rejected", tool: "ledger_transfer" });
  });

  const judgeGuardrail = (action: "rewrite" | "block") => ({ name: "mentions-refund", kind: "output", check: { type: "judge", rubric: "The answer must mention the 'refund'." }, action, maxRewrites: 1 });

  it.skipIf(!available)("an output judge asks for a rewrite: the rewritten answer passes, and the judge's tokens count in the run's usage", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ guardrails: [judgeGuardrail("rewrite")] }), task: "answer: Sorry, we cannot help.\nrewritten: Your refund is on its way." });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("Your refund is on its way.");
    const events = await guardrailEvents(runId);
    expect(events.map((e) => [e.tripped, e.score])).toEqual([
      [true, 0],
      [false, 1],
    ]);
    const spans = flat(await h.engine.getTrace(runId));
    const checks = spans.filter((s) => s.kind === "guardrail");
    expect(checks.map((s) => s.attributes?.model)).toEqual(["demo/judge", "demo/judge"]);
    const judgeTokens = checks.reduce((sum, s) => sum + (s.tokens?.inputTokens ?? 0) + (s.tokens?.outputTokens ?? 0), 0);
    const modelTokens = spans.filter((s) => s.kind === "inference").reduce((sum, s) => sum + (s.tokens?.inputTokens ?? 0) + (s.tokens?.outputTokens ?? 0), 0);
    expect(judgeTokens).toBeGreaterThan(0);
    expect(summary.usage.inputTokens + summary.usage.outputTokens).toBe(judgeTokens + modelTokens);
    // The judge's tokens and cost reach the dashboard's series under its model.
    await eventually(
      () => h.db.metricRollup.aggregate({ _sum: { sum: true }, where: { series: "tokens_in", model: "demo/judge", resolution: 1, scope: 1 } }),
      (sum) => (sum._sum.sum ?? 0) > 0,
      20_000,
      "the judge's tokens to reach the tokens_in series",
    );
    // The conversation holds the refusal and the rewrite prompt naming the guardrail.
    const history = await h.engine.getHistory(runId);
    expect(history.some((m) => m.role === "user" && m.content.includes("mentions-refund"))).toBe(true);
  });

  it.skipIf(!available)("a judge that blocks ends the run with guardrail_tripped", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ guardrails: [judgeGuardrail("block")] }), task: "answer: Sorry, we cannot help." });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error).toMatchObject({ reason: "guardrail_tripped" });
    expect(summary.error?.message).toMatch(/guardrail "mentions-refund" \(output, judge\)/);
    expect(summary.output).toBeNull();
  });

  it.skipIf(!available)("a worker stopped mid-judge: the check runs again on the next worker and is recorded once", async () => {
    const registry = createModelRegistry({ models: h.config.models });
    let judgeCalls = 0;
    // The first worker's judge answers nothing until its attempt is cancelled (the worker goes away).
    const hangingJudge: ModelProvider = {
      generate: (request) =>
        new Promise((_, reject) => {
          judgeCalls++;
          request.signal?.addEventListener("abort", () => reject(request.signal?.reason instanceof Error ? request.signal.reason : new Error("aborted: the worker went away")));
        }),
    };
    const hanging: ModelRegistry = { resolve: (model) => (model === "demo/judge" ? { provider: hangingJudge, modelName: "judge" } : registry.resolve(model)) };
    await stopWorker();
    const stopHanging = await h.startWorker({ models: hanging });
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ guardrails: [judgeGuardrail("block")] }), task: "answer: Your refund is on its way." });
    await eventually(async () => judgeCalls, (n) => n >= 1, 20_000, "the judge to be asked");
    await stopHanging();
    stopWorker = await h.startWorker();
    const summary = await waitForStatus(h.engine, runId, ["completed"], 60_000);
    expect(summary.output).toBe("Your refund is on its way.");
    expect(judgeCalls).toBe(1);
    const events = await guardrailEvents(runId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ guardrail: "mentions-refund", tripped: false, score: 1 });
    expect(flat(await h.engine.getTrace(runId)).filter((s) => s.kind === "guardrail")).toHaveLength(1);
  });

  const refundTask = (action: "block" | "log") => ({ name: "about-refunds", kind: "input", check: { type: "judge", rubric: "The task must be about a 'refund'." }, action, parallel: true });

  it.skipIf(!available)("a parallel input guardrail runs beside the first model call: a pass lets its answer through", async () => {
    // A judge that takes a second and a half, so the model call visibly starts while the check runs.
    const registry = createModelRegistry({ models: h.config.models });
    const demoJudge = registry.resolve("demo/judge").provider;
    const slowJudge: ModelProvider = { generate: async (request, name) => (await new Promise((resolve) => setTimeout(resolve, 1500)), demoJudge.generate(request, name)) };
    await stopWorker();
    const stopSlow = await h.startWorker({ models: { resolve: (model) => (model === "demo/judge" ? { provider: slowJudge, modelName: "judge" } : registry.resolve(model)) } });
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ guardrails: [refundTask("block")] }), task: "Where is my refund?\nanswer: On its way." });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    await stopSlow();
    stopWorker = await h.startWorker();
    expect(summary.output).toBe("On its way.");
    const spans = flat(await h.engine.getTrace(runId));
    const check = spans.find((s) => s.kind === "guardrail");
    const model = spans.find((s) => s.kind === "inference");
    expect(check?.attributes?.verdict).toBe("passed");
    // Side by side: the model call started while the check still ran (the judge takes 1.5 s). When it answers is
    // the machine's business (on a loaded one it answered after the check, and asserting otherwise was a race);
    // what the engine promises is that the answer waits for the pass: the run completes no earlier than the check ends.
    expect(Date.parse(model?.startedAt ?? "")).toBeLessThan(Date.parse(check?.endedAt ?? ""));
    const completed = (await h.engine.getEvents(runId)).find((e) => e.type === "run_completed");
    expect(completed, "the run recorded its completion").toBeDefined();
    expect(Date.parse(completed?.at ?? "")).toBeGreaterThanOrEqual(Date.parse(check?.endedAt ?? ""));
  });

  it.skipIf(!available)("a parallel input guardrail that trips cancels the model call: its answer is never used or recorded", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ guardrails: [refundTask("block")] }), task: "Tell me a joke\nthink 2000\nanswer: A joke." });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error?.reason).toBe("guardrail_tripped");
    expect(summary.error?.message).toMatch(/guardrail "about-refunds" \(input, judge\)/);
    expect(summary.output).toBeNull();
    expect((await h.engine.getHistory(runId)).some((m) => m.role === "assistant")).toBe(false);
    expect((await h.engine.getEvents(runId)).some((e) => e.type === "run_completed")).toBe(false);
  });

  it.skipIf(!available)("an agent without guardrails records no guardrail patch marker, check, span or event", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}), task: "answer: plain" });
    await waitForStatus(h.engine, runId, ["completed"]);
    expect(await guardrailEvents(runId)).toEqual([]);
    const history = await h.client.workflow.getHandle(runId).fetchHistory();
    const events = history.events ?? [];
    expect(patchMarkers(events)).not.toContain("guardrails");
    expect(patchMarkers(events)).toContain("spend-limits-every-call");
    expect(events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean)).not.toContain("checkGuardrail");
  });
});
