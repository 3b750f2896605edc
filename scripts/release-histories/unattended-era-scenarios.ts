// The scenarios recorded from the release that runs agents unattended and
// checks their quality in production (issues 39 and 40) on: guardrails that
// block, mask, send a tool call to the inbox and ask a judge for a rewrite; a
// follow-up that interrupts the turn in flight; a spend limit that pauses a run
// into the inbox until it is raised; an online evaluator scoring a live run and
// a backfill over a past range; one firing of a schedule. Their workflow code
// (guardrail hooks, the follow-up policy's update, the spend-limit patches, the
// evaluator and backfill loops, the scheduled run) came after 9e894a5, the last
// release recorded before: without them a change to it could break runs left
// open at a deploy and no replay would say so.
//
// Like the tape-era scenarios they call the web server's own functions
// (server-only modules): the recorder loads this module under the
// react-server condition.
import { randomUUID } from "node:crypto";
import { saveAgentVersion } from "../../lib/agents/repository";
import { setSpendLimit } from "../../lib/spend-limits/server/store";
import { launchSavedRun } from "../../lib/runs/launch-saved";
import { launchRunSchema } from "../../lib/runs/schemas";
import { createEvaluatorInput } from "../../lib/online-eval/schemas";
import { createEvaluator, deleteEvaluator, startBackfill, type EvaluatorDeps } from "../../lib/online-eval/server/store";
import { backfillWorkflowId, evaluatorWorkflowId } from "../../lib/online-eval/temporal";
import { createSchedule, deleteSchedule, triggerSchedule } from "../../lib/schedules/server/store";
import type { Role } from "../../lib/access/roles";
import type { UnattendedEraScenario } from "../test-support/release-fixture";
import { eventually, expectThat, ofType, pendingApproval, waitFor, type Recording } from "./recording";

const unique = () => randomUUID().slice(0, 8);

const single = (agent: Record<string, unknown>, limits: Record<string, unknown> = {}) => ({
  entryAgent: "main",
  agents: [{ name: "main", model: "demo/test", ...agent }],
  limits: { followUpWindowSeconds: 0, ...limits },
});

/** A Luhn-valid card number, as a customer would type it. */
const CARD = "4111 1111 1111 1111";
const cardGuardrail = (action: "block" | "mask") => ({ name: "no-cards", kind: "input", check: { type: "pii", detectors: ["card"] }, action });

async function admin(r: Recording): Promise<{ id: string; email: string; role: Role }> {
  const row = await r.db.user.findUniqueOrThrow({ where: { email: "admin@zap.local" } });
  return { id: row.id, email: row.email, role: "admin" };
}

/** A saved graph of one version, named after the scenario. */
async function saved(r: Recording, prefix: string, graph: Parameters<typeof saveAgentVersion>[2]): Promise<string> {
  const name = `${prefix}-${unique()}`;
  await saveAgentVersion(r.db, name, graph, { createdById: r.builder.id });
  return name;
}

/** The workflow ids of `type` whose id contains `part`, once `count` are in the visibility store. */
async function workflowsOf(r: Recording, type: string, part: string, count: number): Promise<string[]> {
  return eventually(
    async () => {
      const found: string[] = [];
      for await (const e of r.client.workflow.list({ query: `WorkflowType = '${type}'` })) if (e.workflowId.includes(part)) found.push(e.workflowId);
      return found;
    },
    (found) => found.length === count,
    `${count} ${type} execution(s) of ${part}`,
  );
}

export const UNATTENDED_ERA: Record<UnattendedEraScenario, (r: Recording) => Promise<string[]>> = {
  async "guardrail-blocked"(r) {
    const { runId } = await r.engine.startRun({ graph: single({ guardrails: [cardGuardrail("block")] }), task: `Refund my card ${CARD} please\nanswer: refunded` });
    expectThat((await waitFor(r, runId, ["failed"])).error?.reason === "guardrail_tripped", "guardrail_tripped");
    return [runId];
  },
  async "guardrail-masked"(r) {
    // The input masked before the model sees it, and a typed answer's email masked on the way out.
    const graph = single({
      outputSchema: { schema: { type: "object", properties: { reply: { type: "string" } }, required: ["reply"] } },
      guardrails: [cardGuardrail("mask"), { name: "no-emails-out", kind: "output", check: { type: "pii", detectors: ["email"] }, action: "mask" }],
    });
    const { runId } = await r.engine.startRun({ graph, task: `card ${CARD}\nreturn {"reply":"write to ops@example.com"}` });
    const summary = await waitFor(r, runId, ["completed"]);
    expectThat(JSON.stringify(summary.outputData) === JSON.stringify({ reply: "write to [redacted email]" }), `the answer masked (${JSON.stringify(summary.outputData)})`);
    return [runId];
  },
  async "guardrail-tool-inbox"(r) {
    // A tool_call guardrail routes the call to the inbox; approved, it runs once.
    const graph = single({ tools: ["calculator"], guardrails: [{ name: "sevens", kind: "tool_call", tools: ["calculator"], check: { type: "regex", pattern: "7" }, action: "inbox" }] });
    const { runId } = await r.engine.startRun({ graph, task: 'tool calculator {"expression":"6*7"}\nanswer: done' });
    const approval = await pendingApproval(r, runId);
    expectThat(approval.guardrail === "sevens", `the guardrail's approval (${JSON.stringify(approval.guardrail)})`);
    await r.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "release fixture", decidedBy: r.approver });
    expectThat((await waitFor(r, runId, ["completed"])).output === "done", "answered after the approval");
    return [runId];
  },
  async "guardrail-judge-rewrite"(r) {
    const judge = { name: "mentions-refund", kind: "output", check: { type: "judge", rubric: "The answer must mention the 'refund'." }, action: "rewrite", maxRewrites: 1 };
    const { runId } = await r.engine.startRun({ graph: single({ guardrails: [judge] }), task: "answer: Sorry, we cannot help.\nrewritten: Your refund is on its way." });
    const summary = await waitFor(r, runId, ["completed"]);
    expectThat(summary.output === "Your refund is on its way.", `the rewritten answer (${JSON.stringify(summary.output)})`);
    return [runId];
  },
  async "follow-up-interrupt"(r) {
    // Two messages while the first turn thinks: the turn is interrupted and one answer follows.
    const { runId } = await r.engine.startRun({ graph: single({}, { followUps: "interrupt", followUpWindowSeconds: 2 }), task: "think 120000\nanswer: first" });
    await waitFor(r, runId, ["thinking"]);
    await Promise.all([r.engine.sendMessage(runId, "answer: second"), r.engine.sendMessage(runId, "answer: third")]);
    const events = await eventually(() => r.engine.getEvents(runId), (e) => ofType(e, "run_completed").length >= 1, "the answer after the interruption");
    expectThat(ofType(events, "turn_interrupted").length >= 1, "the turn in flight was interrupted");
    await waitFor(r, runId, ["completed"]);
    return [runId];
  },
  async "spend-limit-ask"(r) {
    // A dollar an output token on a model of its own: the first call passes a $100 limit, the second asks;
    // approved once the limit is raised, the run answers. Each call thinks past the check's few seconds of cache.
    const owner = await admin(r);
    const model = `demo/release-spender-${unique()}`;
    await r.db.modelPrice.create({ data: { model, effectiveFrom: new Date("2020-01-01T00:00:00Z"), input: 0, output: 1_000_000, createdById: owner.id } });
    const graph = await saved(r, "release-spend", { ...single({ tools: ["calculator"] }), agents: [{ name: "main", model, tools: ["calculator"] }] });
    await setSpendLimit(r.db, { scope: "graph", scopeId: graph, period: "day", amountUsd: 100, onReached: "ask" }, owner);
    const task = 'think 3500\ntokens 600\nrepeat 2 tool calculator {"expression":"1+1"}\nanswer: done';
    const { runId } = await launchSavedRun({ db: r.db, engine: r.engine }, launchRunSchema.parse({ graph, task }), { id: owner.id, email: owner.email });
    const approval = await pendingApproval(r, runId);
    expectThat(approval.kind === "spend_limit", `a spend-limit request (${approval.kind})`);
    await setSpendLimit(r.db, { scope: "graph", scopeId: graph, period: "day", amountUsd: 1_000_000 }, owner);
    await r.engine.decideApproval(runId, { approvalId: approval.id, approved: true, reason: "limit raised", decidedBy: r.approver });
    expectThat((await waitFor(r, runId, ["completed"])).output === "done", "answered once the limit was raised");
    return [runId];
  },
  async "online-evaluation"(r) {
    // An evaluator scores a live run after its delay; a backfill scores a run that ended yesterday; deleting the
    // evaluator ends its workflow (the backfill's ended when its range was done).
    const deps: EvaluatorDeps = { db: r.db, temporal: r.client, taskQueue: r.taskQueue };
    const graph = await saved(r, "release-evaluated", single({}));
    const checks = [{ source: "scorer", scorer: { kind: "contains", text: "refund" } }];
    const evaluator = await createEvaluator(deps, createEvaluatorInput.parse({ name: `release-${unique()}`, graph, delaySeconds: 1, checks }), r.builder);
    const { runId } = await r.engine.startRun({ graphName: graph, task: "answer: refund issued", startedBy: { id: r.builder.id, email: r.builder.email } });
    await waitFor(r, runId, ["completed"]);
    await eventually(() => r.db.onlineEvaluation.findMany({ where: { evaluatorId: evaluator.id, runId } }), (rows) => rows[0]?.status === "scored", "the live run scored");
    const yesterday = new Date(Date.now() - 24 * 3_600_000);
    const old = `run-${randomUUID()}`;
    await r.db.run.create({ data: { id: old, rootRunId: old, agentName: "main", graphName: graph, task: "please refund", status: "completed", output: "refund issued", startedAt: new Date(yesterday.getTime() - 1_000), endedAt: yesterday } });
    const range = { id: evaluator.id, from: new Date(yesterday.getTime() - 3_600_000).toISOString(), to: new Date(yesterday.getTime() + 3_600_000).toISOString() };
    const backfill = await startBackfill(deps, range, r.builder);
    const done = await eventually(() => r.db.onlineEvaluationBackfill.findUniqueOrThrow({ where: { id: backfill.id } }), (b) => b.status === "done", "the backfill to finish");
    expectThat(done.claimed === 1, `the backfill claimed yesterday's run (${done.claimed})`);
    await deleteEvaluator(deps, evaluator.id, r.builder);
    return [evaluatorWorkflowId(evaluator.id), backfillWorkflowId(backfill.id)];
  },
  async "scheduled-run"(r) {
    // "Run now" on an hourly schedule: one firing starts a run as the schedule's owner and waits for it to end.
    const deps = { db: r.db, temporal: r.client, taskQueue: r.taskQueue };
    const graph = await saved(r, "release-scheduled", single({}));
    const schedule = await createSchedule(deps, { name: `release ${unique()}`, graph, task: "answer: checked", intervalSeconds: 3_600, overlap: "skip" }, r.builder);
    await triggerSchedule(deps, schedule.id, r.builder);
    const [firing] = await workflowsOf(r, "scheduledRunWorkflow", schedule.id, 1);
    const result: unknown = await r.client.workflow.getHandle(firing ?? "").result();
    const runId = (result as { runId?: string }).runId ?? "";
    expectThat((result as { kind?: string }).kind === "ended" && (await waitFor(r, runId, ["completed"])).output === "checked", `the firing's run answered (${JSON.stringify(result)})`);
    await deleteSchedule(deps, schedule.id, r.builder);
    return [firing ?? "", runId];
  },
};
