// Messages that arrive while a run works (issue 39 §4, docs/engine.md "Messages
// that arrive mid-run"): the graph's follow-up policy — enqueue (the default),
// reject, interrupt — each with two messages sent at once, on the real dev
// server and worker, over SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { ApprovalAlreadyDecided, RunBusy } from "../../lib/engine/errors";
import type { RunEvent, TraceNode } from "../../lib/contract/types";

const providers = await testProviders();
// Each story waits on several turns of real runs; on a loaded machine (a full test run beside) a turn can take seconds.
const TEST_TIMEOUT_MS = 150_000;

const flatten = (nodes: TraceNode[]): TraceNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe.concurrent.each(providers)("follow-up policies on $provider", ({ available, create }) => {
  let h: EngineHarness;
  beforeAll(async () => {
    if (available) h = await startEngineHarness({ database: await create() });
  }, TEST_TIMEOUT_MS);
  afterAll(async () => {
    if (available) await h.stop();
  }, TEST_TIMEOUT_MS);

  /** Starts a run whose first turn is in a model call for `thinkMs`, and returns once the ledger says it is thinking. */
  async function startThinking(limits: Record<string, unknown>, thinkMs: number, agent: Record<string, unknown> = {}) {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph(agent, limits), task: `think ${thinkMs}\nanswer: first` });
    await waitForStatus(h.engine, runId, ["thinking"], 45_000);
    return runId;
  }

  it.skipIf(!available)("enqueue (the default): two messages at once while the run works are both answered after the turn, in order of arrival", async () => {
    const runId = await startThinking({}, 2500);
    const sent = await Promise.all([h.engine.sendMessage(runId, "answer: second"), h.engine.sendMessage(runId, "answer: third")]);
    expect(sent, "both messages are taken").toHaveLength(2);
    const events = await eventually(() => h.engine.getEvents(runId), (e) => ofType(e, "run_completed").length === 3, 60_000, "three answers");
    const arrived = ofType(events, "user_message").map((e) => e.content.replace("answer: ", ""));
    expect(arrived.sort(), "each message arrived once").toEqual(["second", "third"]);
    const order = ofType(events, "user_message").map((e) => e.content.replace("answer: ", ""));
    expect(ofType(events, "run_completed").map((e) => e.output), "the turn in flight answers first, then each message in the order it arrived").toEqual(["first", ...order]);
    expect(ofType(events, "turn_interrupted")).toEqual([]);
  }, TEST_TIMEOUT_MS);

  it.skipIf(!available)("reject: both messages sent at once to a working run get 409 with the reason; of two sent at once to an idle run exactly one is taken", async () => {
    const runId = await startThinking({ followUps: "reject" }, 8000);
    const busy = await Promise.allSettled([h.engine.sendMessage(runId, "answer: second"), h.engine.sendMessage(runId, "answer: third")]);
    for (const outcome of busy) {
      expect(outcome.status, "a message to a working run is refused").toBe("rejected");
      const error = (outcome as PromiseRejectedResult).reason as unknown;
      expect(error).toBeInstanceOf(RunBusy);
      expect(error).toMatchObject({ status: 409, code: "conflict" });
      expect((error as Error).message).toMatch(/still working on its current turn/);
    }
    expect((await waitForStatus(h.engine, runId, ["completed"], 45_000)).output, "the refused messages did not disturb the turn").toBe("first");

    // Idle now: two at once, each a turn long enough that the other arrives while it works.
    const idle = await Promise.allSettled([h.engine.sendMessage(runId, "think 5000\nanswer: fourth"), h.engine.sendMessage(runId, "think 5000\nanswer: fifth")]);
    expect(idle.filter((o) => o.status === "fulfilled"), "exactly one of two simultaneous messages is taken").toHaveLength(1);
    const refused = idle.find((o) => o.status === "rejected");
    expect(refused?.reason).toBeInstanceOf(RunBusy);
    const events = await eventually(() => h.engine.getEvents(runId), (e) => ofType(e, "run_completed").length === 2, 60_000, "the taken message's answer");
    const taken = ofType(events, "user_message");
    expect(taken, "only the accepted message reached the run").toHaveLength(1);
    expect(ofType(events, "run_completed").map((e) => e.output)).toEqual(["first", taken[0]?.content.includes("fourth") ? "fourth" : "fifth"]);

    // Idle again: the run takes a message (nothing stuck).
    await h.engine.sendMessage(runId, "answer: sixth");
    await eventually(() => h.engine.getRun(runId), (s) => s.output === "sixth", 45_000, "the answer to a message sent once the run is idle");
  }, TEST_TIMEOUT_MS);

  it.skipIf(!available)("interrupt: two messages at once cancel the turn in flight; one answer follows with every message in its input", async () => {
    const runId = await startThinking({ followUps: "interrupt" }, 120_000);
    const sentAt = Date.now();
    await Promise.all([h.engine.sendMessage(runId, "answer: second"), h.engine.sendMessage(runId, "answer: third")]);
    const events = await eventually(() => h.engine.getEvents(runId), (e) => ofType(e, "run_completed").length >= 1, 60_000, "the answer after the interruption");
    expect(Date.now() - sentAt, "the 120 s model call was cancelled, not waited for").toBeLessThan(60_000);
    const interrupted = ofType(events, "turn_interrupted");
    expect(interrupted.length, "the turn in flight was interrupted").toBeGreaterThanOrEqual(1);
    expect(interrupted[0]).toMatchObject({ turn: 1, message: "interrupted by a new message", withdrawnApprovals: [] });
    const order = ofType(events, "user_message").map((e) => e.content.replace("answer: ", ""));
    expect([...order].sort()).toEqual(["second", "third"]);
    const completed = ofType(events, "run_completed");
    expect(completed.map((e) => e.output), "the interrupted turn recorded no answer; the new turn answers the last message").toEqual([order[1]]);
    const history = await h.engine.getHistory(runId);
    expect(history.filter((m) => m.role === "user").map((m) => m.content), "the new turn's input holds the interrupted task and both messages").toEqual([
      "think 120000\nanswer: first",
      ...order.map((o) => `answer: ${o}`),
    ]);
    const spans = flatten(await h.engine.getTrace(runId));
    const cut = spans.filter((s) => s.attributes?.outcome === "interrupted");
    expect(cut.map((s) => s.kind), "the interrupted iteration is on the trace as interrupted").toContain("iteration");
    expect(cut.every((s) => s.status === "error" && s.endedAt !== null)).toBe(true);
    expect(spans.filter((s) => s.kind !== "run" && s.kind !== "timer" && s.endedAt === null), "no span of the run is left running").toEqual([]);
  }, TEST_TIMEOUT_MS);

  it.skipIf(!available)("a message sent as the follow-up window closes is answered, by the open run or its continuation, never lost", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({}, { followUpWindowSeconds: 1 }), task: "answer: r0" });
    await eventually(() => h.engine.getRun(runId), (s) => s.output === "r0", 45_000, "the first answer");
    // Sent around the moment the 1 s window fires (before, during and after its close-down), each must be answered.
    for (let i = 1; i <= 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 850 + 80 * i));
      await h.engine.sendMessage(runId, `answer: r${i}`);
      await eventually(() => h.engine.getRun(runId), (s) => s.output === `r${i}`, 45_000, `the answer to message ${i}`);
    }
    const history = await h.engine.getHistory(runId);
    expect(history.filter((m) => m.role === "user").map((m) => m.content)).toEqual([0, 1, 2, 3, 4].map((i) => `answer: r${i}`));
  }, TEST_TIMEOUT_MS);

  it.skipIf(!available)("interrupt: a sub-agent conversation the interrupted turn started ends with it", async () => {
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["slow"] },
        { name: "slow", model: "demo/slow" },
      ],
      limits: { followUpWindowSeconds: 60, subAgentIdleTimeoutSeconds: 60, followUps: "interrupt" as const },
    };
    const { runId } = await h.engine.startRun({ graph, task: "message slow: think 60000\nanswer: never" });
    // Read from the ledger (a query may wait for a busy workflow task): the lead's message to the sub-agent.
    const started = await eventually(() => h.engine.getEvents(runId), (e) => ofType(e, "sub_agent_message").length === 1, 45_000, "the conversation to start");
    const conversationId = ofType(started, "sub_agent_message")[0]?.conversationId ?? "";
    await h.engine.sendMessage(runId, "answer: changed course");
    await eventually(() => h.engine.getRun(runId), (s) => s.output === "changed course", 45_000, "the new turn's answer");
    const child = await eventually(() => h.client.workflow.getHandle(conversationId).describe(), (d) => d.status.name !== "RUNNING", 30_000, "the conversation to stop");
    expect(child.status.name, "the conversation's workflow was cancelled with the turn").toBe("CANCELLED");
    const conversations = await eventually(() => h.engine.getConversations(runId), (list) => list.length === 1 && list[0]?.isActive === false, 30_000, "the run to mark the conversation ended");
    expect(conversations.map((c) => c.conversationId), "the run no longer offers the ended conversation").toEqual([conversationId]);
    const spans = flatten(await h.engine.getTrace(runId));
    expect(spans.find((s) => s.kind === "sub_agent")).toMatchObject({ status: "error", attributes: expect.objectContaining({ outcome: "interrupted" }) });
  }, TEST_TIMEOUT_MS);

  it.skipIf(!available)("interrupt: an approval pending in the interrupted turn is withdrawn, its call never runs", async () => {
    const agent = { tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver", expiresInSeconds: 3600 }] };
    const { runId } = await h.engine.startRun({
      graph: singleAgentGraph(agent, { followUps: "interrupt" }),
      task: 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":3,"memo":"refund"}\nanswer: sent',
    });
    await waitForStatus(h.engine, runId, ["awaiting_approval"], 45_000);
    const [approval] = await h.engine.getPendingApprovals(runId);
    if (!approval) throw new Error("expected a pending approval");

    await h.engine.sendMessage(runId, "answer: never mind");
    await eventually(() => h.engine.getRun(runId), (s) => s.output === "never mind", 45_000, "the new turn's answer");
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "turn_interrupted")).toEqual([expect.objectContaining({ withdrawnApprovals: [approval.id] })]);
    expect(await h.engine.getPendingApprovals(runId), "the run holds no pending approval").toEqual([]);
    const record = await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } });
    expect(record).toMatchObject({ status: "withdrawn", reason: "superseded: the turn was interrupted by a new message" });
    expect(await h.db.auditEvent.count({ where: { action: "approval.withdrawn", target: `${runId}/${approval.id}` } })).toBe(1);
    expect(await h.db.ledgerEntry.count({ where: { runId } }), "the gated call never ran").toBe(0);
    const history = await h.engine.getHistory(runId);
    expect(history.find((m) => m.role === "tool")?.content).toBe("No result: superseded: the turn was interrupted by a new message.");
    const approver = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    await expect(
      h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: { id: approver.id, email: approver.email, role: approver.role } }),
      "a late decision finds the approval withdrawn",
    ).rejects.toBeInstanceOf(ApprovalAlreadyDecided);
  }, TEST_TIMEOUT_MS);
});
