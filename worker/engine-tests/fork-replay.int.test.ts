// "Fork from here" on the real engine: the fork reuses every step recorded
// before the chosen one (no model call, no side effect: the ledger's entries
// and balances do not move), the chosen step carries its edit, and the run is
// live after it; a fork on another version diverges at the fork point only; a
// fork inside a sub-agent's conversation replays the parent and the child up
// to it; recorded approvals are not asked again; and the refusals name the
// problem. SQLite and PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { saveAgentVersion } from "../../lib/agents/repository";
import { readSpans } from "../../lib/run-ledger/read";
import { readForksOf } from "../../lib/run-ledger/forks";
import type { RunEvent, TraceSpan } from "../../lib/contract/types";
import type { SessionUser } from "../../lib/auth/server/session";
import { forkRunWith } from "../../lib/forks/server/fork-run";
import type { ForkRunInput } from "../../lib/forks/schemas";
import { AppError } from "../../lib/errors";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const providers = await testProviders();

type Completed = Extract<RunEvent, { type: "tool_call_completed" }>;
type Inferred = Extract<RunEvent, { type: "inference_completed" }>;
const toolResults = (events: RunEvent[]) => events.filter((e): e is Completed => e.type === "tool_call_completed");
const inferences = (events: RunEvent[]) => events.filter((e): e is Inferred => e.type === "inference_completed");

const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount}}`;
const TASK = ['tool calculator {"expression":"2+2"}', transfer(7), 'tool calculator {"expression":"3*3"}', "answer: all done"].join("\n");

// The providers side by side (each its own harness): the tests within one run in order (sequential), as two of them
// compare the whole ledger before and after a fork.
describe.concurrent.each(providers)("forks on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let builder: SessionUser;
  let approver: { id: string; email: string; role: string };

  async function setUp() {
    h = await startEngineHarness({ database: await create(), policy: { exemptTools: ["ledger_transfer", "calculator", "kb__search_kb"] } });
    const user = await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" } });
    builder = { id: user.id, email: user.email, name: user.name ?? "builder", role: "builder" };
    const a = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    approver = { id: a.id, email: a.email, role: a.role };
  }

  /** A saved agent with one version per prompt given. */
  async function savedAgent(agent: Record<string, unknown>, prompts: string[] = ["You help."]): Promise<string> {
    const name = `fork-${randomUUID().slice(0, 8)}`;
    for (const prompt of prompts) await saveAgentVersion(h.db, name, singleAgentGraph({ ...agent, systemPrompt: prompt }, { followUpWindowSeconds: 0 }), { createdById: builder.id });
    return name;
  }

  async function completedRun(graphName: string, task: string, version?: number): Promise<string> {
    const { runId } = await h.engine.startRun({ graphName, ...(version ? { version } : {}), task, startedBy: { id: builder.id, email: builder.email } });
    await waitForStatus(h.engine, runId, ["completed"], 60_000);
    return runId;
  }

  const fork = (input: ForkRunInput) => forkRunWith({ db: h.db, engine: h.engine }, input, builder);

  async function spansOf(runId: string): Promise<TraceSpan[]> {
    return readSpans(h.db, runId);
  }
  const toolSpan = (spans: TraceSpan[], tool: string, nth = 0) => {
    const span = spans.filter((s) => s.kind === "tool" && s.name === tool)[nth];
    if (!span) throw new Error(`no ${tool} span`);
    return span;
  };

  const ledgerState = async () => ({
    entries: await h.db.ledgerEntry.count(),
    balances: (await h.db.ledgerAccount.findMany({ orderBy: { id: "asc" } })).map((a) => JSON.stringify(a)),
  });

  beforeAll(async () => {
    if (available) await setUp();
  }, scaledWait(120_000));
  afterAll(async () => {
    if (available) await h.stop();
  });

  it.skipIf(!available).sequential("replays every step before the answer: no model call, no transfer, and the same answer", async () => {
    const graph = await savedAgent({ tools: ["calculator", "ledger_transfer"] });
    const origin = await completedRun(graph, TASK);
    const before = await ledgerState();
    const answer = (await spansOf(origin)).filter((s) => s.kind === "inference").at(-1);
    if (!answer) throw new Error("no model span");
    const forked = await fork({ runId: origin, spanId: answer.id });
    expect(forked.replayedSteps).toBe(6); // three model responses and three tool results
    const summary = await waitForStatus(h.engine, forked.runId, ["completed"], 60_000);
    expect(summary.output).toBe("all done");
    // The transfer was replayed: the ledger did not move.
    expect(await ledgerState()).toEqual(before);
    const events = await h.engine.getEvents(forked.runId);
    const results = toolResults(events);
    expect(results.map((r) => [r.tool, r.replayed === true])).toEqual([["calculator", true], ["ledger_transfer", true], ["calculator", true]]);
    expect(results.map((r) => r.result)).toEqual(toolResults(await h.engine.getEvents(origin)).map((r) => r.result));
    const calls = inferences(events);
    expect(calls.map((c) => c.replayed === true)).toEqual([true, true, true, false]);
    expect(calls.slice(0, 3).every((c) => c.usage.inputTokens === 0 && c.usage.outputTokens === 0 && (c.recordedUsage?.inputTokens ?? 0) > 0)).toBe(true);
    // Replayed steps cost nothing: only the live answer's tokens count.
    expect(summary.usage).toEqual(calls[3]?.usage);
    const replayedSpans = (await spansOf(forked.runId)).filter((s) => s.attributes?.replayed === true);
    expect(replayedSpans.map((s) => s.kind).sort()).toEqual(["inference", "inference", "inference", "tool", "tool", "tool"]);
    const row = await h.db.run.findUniqueOrThrow({ where: { id: forked.runId } });
    expect(row).toMatchObject({ forkOfRunId: origin, forkSpanId: answer.id, graphName: graph });
    const audit = await h.db.auditEvent.findFirst({ where: { action: "run.forked", target: forked.runId } });
    expect(audit?.actorId).toBe(builder.id);
    expect(JSON.parse(audit?.details ?? "{}")).toMatchObject({ origin, span: answer.id, replayedSteps: 6 });
  });

  it.skipIf(!available).sequential("a fork at a tool step with an edited result: earlier steps replayed, the edit used, the rest live", async () => {
    const graph = await savedAgent({ tools: ["calculator", "ledger_transfer"] });
    const origin = await completedRun(graph, TASK);
    const transferSpan = toolSpan(await spansOf(origin), "ledger_transfer");
    const before = await ledgerState();
    const edited = '{"transfer_id":"edited-by-test","status":"posted"}';
    const forked = await fork({ runId: origin, spanId: transferSpan.id, editedToolResult: edited });
    expect(forked.compareUrl).toBe(`/runs/compare?a=${origin}&b=${forked.runId}`);
    await waitForStatus(h.engine, forked.runId, ["completed"], 60_000);
    expect(await ledgerState()).toEqual(before);
    const events = await h.engine.getEvents(forked.runId);
    const results = toolResults(events);
    // The edited transfer is not a recording: edited (who, when), never replayed.
    expect(results.map((r) => [r.tool, r.replayed === true])).toEqual([["calculator", true], ["ledger_transfer", false], ["calculator", false]]);
    expect(results[1]).toMatchObject({ result: edited, edited: { by: builder.email, at: expect.any(String) } });
    // Models: the two responses before the transfer's result replayed, the rest live.
    expect(inferences(events).map((c) => c.replayed === true)).toEqual([true, true, false, false]);
    expect(inferences(events).slice(2).every((c) => c.usage.inputTokens > 0)).toBe(true);
  });

  it.skipIf(!available).sequential("a fork on another version diverges at the fork point only", async () => {
    const graph = await savedAgent({ tools: ["calculator", "ledger_transfer"] }, ["You help.", "You help, briefly."]);
    const origin = await completedRun(graph, TASK, 1);
    const third = toolSpan(await spansOf(origin), "calculator", 1);
    const forked = await fork({ runId: origin, spanId: third.id, version: 2 });
    await waitForStatus(h.engine, forked.runId, ["completed"], 60_000);
    const row = await h.db.run.findUniqueOrThrow({ where: { id: forked.runId } });
    const version2 = await h.db.agentVersion.findFirstOrThrow({ where: { agent: { name: graph }, version: 2 } });
    expect(row.agentVersionId).toBe(version2.id);
    const [a, b] = [toolResults(await h.engine.getEvents(origin)), toolResults(await h.engine.getEvents(forked.runId))];
    // Before the fork point: the same results, replayed; the fork point: run again, live.
    expect(b.slice(0, 2).map((r) => [r.tool, r.result, r.replayed])).toEqual(a.slice(0, 2).map((r) => [r.tool, r.result, true]));
    expect(b[2]).toMatchObject({ tool: "calculator", outcome: "ok" });
    expect(b[2]?.replayed).toBeUndefined();
    expect(await h.db.ledgerEntry.count({ where: { runId: forked.runId } })).toBe(0);
  });

  it.skipIf(!available).sequential("a fork at a step of a sub-agent's conversation replays the parent and the child up to it", async () => {
    const name = `fork-${randomUUID().slice(0, 8)}`;
    await saveAgentVersion(
      h.db,
      name,
      {
        entryAgent: "lead",
        agents: [
          { name: "lead", model: "demo/lead", subAgents: ["billing"], tools: ["calculator"] },
          { name: "billing", model: "demo/billing", description: "sums", tools: ["calculator"] },
        ],
        limits: { subAgentIdleTimeoutSeconds: 1, followUpWindowSeconds: 0 },
      },
      { createdById: builder.id },
    );
    const origin = await completedRun(name, ['tool calculator {"expression":"1+1"}', 'message billing: tool calculator {"expression":"20+22"}', "answer: lead done"].join("\n"));
    const child = (await h.db.run.findMany({ where: { parentRunId: origin } }))[0];
    if (!child) throw new Error("no conversation");
    const childTool = toolSpan(await spansOf(child.id), "calculator");
    const forked = await fork({ runId: child.id, spanId: childTool.id, editedToolResult: "41" });
    const summary = await waitForStatus(h.engine, forked.runId, ["completed"], 60_000);
    expect(summary.output).toBe("lead done");
    const forkChild = (await h.db.run.findMany({ where: { parentRunId: forked.runId } }))[0];
    if (!forkChild) throw new Error("the fork started no conversation");
    const parentEvents = await h.engine.getEvents(forked.runId);
    expect(toolResults(parentEvents)[0]).toMatchObject({ tool: "calculator", replayed: true });
    const childEvents = await h.engine.getEvents(forkChild.id);
    expect(inferences(childEvents)[0]?.replayed).toBe(true);
    expect(toolResults(childEvents)[0]).toMatchObject({ tool: "calculator", result: "41", edited: { by: builder.email } });
    expect(toolResults(childEvents)[0]?.replayed).toBeUndefined();
    // After the edited step the child's model is called again.
    expect(inferences(childEvents).slice(1).every((c) => c.replayed !== true)).toBe(true);
    // The origin's header lists the fork made from its sub-run's step; the sub-run's lists it too.
    expect((await readForksOf(h.db, origin)).find((f) => f.runId === forked.runId)).toMatchObject({ spanId: childTool.id, inRun: child.id });
    expect((await readForksOf(h.db, child.id)).map((f) => f.runId)).toEqual([forked.runId]);
  });

  it.skipIf(!available).sequential("a recorded approval is not asked again: the fork reuses the decision and its result", async () => {
    const graph = await savedAgent({ tools: ["calculator", "ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver" }] });
    const { runId: origin } = await h.engine.startRun({ graphName: graph, task: TASK, startedBy: { id: builder.id, email: builder.email } });
    await waitForStatus(h.engine, origin, ["awaiting_approval"], 60_000);
    const [approval] = await h.engine.getPendingApprovals(origin);
    if (!approval) throw new Error("expected an approval");
    await h.engine.decideApproval(origin, { approvalId: approval.id, approved: true, reason: "ok", decidedBy: approver });
    await waitForStatus(h.engine, origin, ["completed"], 60_000);
    const before = await ledgerState();
    const third = toolSpan(await spansOf(origin), "calculator", 1);
    const forked = await fork({ runId: origin, spanId: third.id });
    await waitForStatus(h.engine, forked.runId, ["completed"], 60_000);
    expect(await h.engine.getPendingApprovals(forked.runId)).toEqual([]);
    const events = await h.engine.getEvents(forked.runId);
    expect(events.some((e) => e.type === "approval_requested")).toBe(false);
    expect(toolResults(events)[1]).toMatchObject({ tool: "ledger_transfer", replayed: true, outcome: "ok" });
    expect(await ledgerState()).toEqual(before);
  });

  it.skipIf(!available).sequential("refuses what cannot be forked, naming the problem", async () => {
    const graph = await savedAgent({ tools: ["calculator"] });
    const origin = await completedRun(graph, 'tool calculator {"expression":"2+2"}\nanswer: 4');
    const spans = await spansOf(origin);
    const model = spans.find((s) => s.kind === "inference");
    const tool = toolSpan(spans, "calculator");
    if (!model) throw new Error("no model span");
    const refusal = async (input: ForkRunInput) => {
      const error = await fork(input).then(() => null, (e: unknown) => e);
      if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
      return { status: error.status, message: error.userMessage };
    };
    expect(await refusal({ runId: "nobody-0000", spanId: "s1" })).toEqual({ status: 404, message: 'There is no run "nobody-0000"' });
    expect(await refusal({ runId: origin, spanId: "s999" })).toEqual({ status: 404, message: `There is no step s999 in run ${origin}` });
    expect(await refusal({ runId: origin, spanId: model.id, editedToolResult: "x" })).toMatchObject({ status: 422, message: expect.stringContaining("Only a tool step's result can be edited") });
    expect(await refusal({ runId: origin, spanId: tool.id, editedModelOutput: "x" })).toMatchObject({ status: 422, message: expect.stringContaining("Only a model step's output can be edited") });
    expect(await refusal({ runId: origin, spanId: tool.id, version: 9 })).toEqual({ status: 422, message: `The saved agent "${graph}" has no version 9` });
    expect(await refusal({ runId: origin, spanId: tool.id, prompt: { agent: "nobody", systemPrompt: "x" } })).toMatchObject({ status: 422, message: expect.stringContaining('has no agent "nobody"') });
    const { runId: inline } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator"] }, { followUpWindowSeconds: 0 }), task: "answer: inline" });
    await waitForStatus(h.engine, inline, ["completed"], 60_000);
    expect(await refusal({ runId: inline, spanId: "s1" })).toMatchObject({ status: 422, message: expect.stringContaining("inline graph") });
    await h.db.agent.update({ where: { name: graph }, data: { archivedAt: new Date() } });
    expect(await refusal({ runId: origin, spanId: tool.id })).toMatchObject({ status: 409, message: expect.stringContaining("is archived") });
    expect(await h.db.run.count({ where: { forkOfRunId: origin } })).toBe(0);
  });
});
