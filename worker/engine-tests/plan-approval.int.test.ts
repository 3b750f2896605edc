// Plan approval on the real Temporal dev server (issue 17 §1): with the
// graph's plan.approval on, the accepted plan waits in the approval inbox
// before any node runs. An approver approves it, edits it (checked against the
// graph's cards and size; an invalid edit is refused with 422 and decides
// nothing) or rejects it with a reason the planner re-plans from once; a second
// rejection, or an expiry, fails the run plan_invalid. Decided, recorded and
// audited like any approval, and every execution replays.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { replayRunTrees } from "../../scripts/test-support/replay";
import { ValidationError } from "../../lib/errors";
import { enrich } from "../../lib/inbox/server/inbox";
import { PLAN_APPROVAL_TOOL } from "../../lib/contract/plan-approval";
import type { Plan } from "../../lib/contract/plan";
import type { ApprovalRequest, RunEvent } from "../../lib/contract/types";
import tripPlanner from "../../lib/agents/demo/trip-planner.json";

let h: EngineHarness;
let approver: { id: string; email: string; role: string };

beforeAll(async () => {
  h = await startEngineHarness();
  const user = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
  approver = { id: user.id, email: user.email, role: user.role };
});
afterAll(async () => h?.stop());

const replayable: string[] = [];
const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
const trip = (limits: Record<string, unknown> = {}) => ({
  ...tripPlanner,
  mode: "plan-and-execute" as const,
  plan: { ...tripPlanner.plan, approval: true },
  limits: { ...tripPlanner.limits, followUpWindowSeconds: 0, ...limits },
});

/** Starts a trip run and returns it once its plan waits for approval. */
async function startWaiting(task: string, limits: Record<string, unknown> = {}) {
  const { runId } = await h.engine.startRun({ graph: trip(limits), task });
  const approval = await pendingPlan(runId);
  return { runId, approval };
}

async function pendingPlan(runId: string, notId?: string): Promise<ApprovalRequest> {
  const pending = await eventually(
    () => h.engine.getPendingApprovals(runId),
    (list) => list.length === 1 && list[0]?.id !== notId,
    20_000,
    "the plan to wait for approval",
  );
  return pending[0] as ApprovalRequest;
}

const planOf = (approval: ApprovalRequest) => approval.arguments.plan as Plan;

describe("plan approval", () => {
  it("waits for approval before any node runs; approved, the plan runs as proposed; recorded and audited", async () => {
    const { runId, approval } = await startWaiting("Plan a 3-day trip to Lisbon\n@itinerary-planner: answer: Day 1 Alfama, day 2 Belém, day 3 Sintra");
    expect(approval).toMatchObject({ toolName: PLAN_APPROVAL_TOOL, agentName: "trip-planner", status: "pending", onExpiry: "reject", requiredApprovals: 1 });
    expect(planOf(approval).nodes.map((n) => n.id)).toEqual(["flight-researcher", "hotel-researcher", "itinerary-planner"]);
    // The approval's record can land a moment before the run publishes its status (seen on a loaded machine).
    await waitForStatus(h.engine, runId, ["awaiting_approval"]);
    const before = await h.engine.getEvents(runId);
    expect(ofType(before, "plan_proposed").map((e) => e.plan), "the plan waiting is the plan proposed").toEqual([planOf(approval)]);
    expect(ofType(before, "plan_node_started"), "no node runs before the decision").toEqual([]);

    // The inbox reads it with what an edit must keep: the graph's cards and size.
    const [item] = await enrich(h.db, [approval]);
    expect(item).toMatchObject({ precedingMessage: null, planLimits: { agents: ["flight-researcher", "hotel-researcher", "itinerary-planner"], maxNodes: 20 }, toolSchema: { required: ["plan"] } });

    const decided = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver });
    expect(decided.status).toBe("approved");
    const done = await waitForStatus(h.engine, runId, ["completed"]);
    expect(done.output).toBe("Day 1 Alfama, day 2 Belém, day 3 Sintra");
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "plan_proposed"), "approved unchanged: proposed once").toHaveLength(1);
    expect(ofType(events, "plan_node_started").map((e) => e.nodeId).sort()).toEqual(["flight-researcher", "hotel-researcher", "itinerary-planner"]);
    const decidedAt = events.find((e) => e.type === "approval_decided")?.seq ?? Infinity;
    expect(Math.min(...ofType(events, "plan_node_started").map((e) => e.seq)), "nodes start after the decision").toBeGreaterThan(decidedAt);

    const record = await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } });
    expect(record).toMatchObject({ runId, status: "approved", toolName: PLAN_APPROVAL_TOOL, decidedByEmail: approver.email });
    const audit = await h.db.auditEvent.findUniqueOrThrow({ where: { id: `approval:${approval.id}` } });
    expect(audit).toMatchObject({ action: "approval.approved", actorId: approver.id, target: `${runId}/${approval.id}` });
    replayable.push(runId);
  });

  it("refuses an invalid edit (a cycle, an unknown agent) with 422 and decides nothing; the edited plan then runs", async () => {
    const { runId, approval } = await startWaiting("Plan a weekend in Porto");
    const [flights, hotels, itinerary] = planOf(approval).nodes as [Plan["nodes"][number], Plan["nodes"][number], Plan["nodes"][number]];
    const invalid: [Record<string, unknown>, RegExp][] = [
      [{ plan: { nodes: [{ ...flights, dependsOn: ["itinerary-planner"] }, hotels, itinerary] } }, /the edited plan is invalid: plan\.cycle: flight-researcher → itinerary-planner → flight-researcher/],
      [{ plan: { nodes: [{ ...flights, agent: "chef" }] } }, /plan\.nodes\[0\]\.agent: unknown agent "chef"/],
      [{ plan: { nodes: [itinerary] } }, /plan\.nodes\[0\]\.dependsOn\[0\]: no node has the id "flight-researcher"/],
      [{ tokens: 5, plan: planOf(approval) }, /tokens: only the plan can be edited/],
    ];
    for (const [editedArguments, message] of invalid) {
      const error = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments, decidedBy: approver }).catch((e: unknown) => e);
      expect(error, JSON.stringify(editedArguments)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).status).toBe(422);
      expect((error as ValidationError).userMessage).toMatch(message);
    }
    expect(await h.engine.getPendingApprovals(runId), "still waiting, undecided").toEqual([expect.objectContaining({ id: approval.id, status: "pending" })]);
    expect(await h.db.approvalRecord.findUnique({ where: { id: approval.id } }).then((r) => r?.status ?? "pending")).toBe("pending");

    // Remove the hotel research, and say what the itinerary should do without it.
    const edited: Plan = { nodes: [flights, { ...itinerary, objective: "Write the itinerary from the flights alone", dependsOn: ["flight-researcher"] }] };
    const decided = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments: { plan: edited }, reason: "no hotel needed", decidedBy: approver });
    expect(decided).toMatchObject({ status: "approved", decision: { editedArguments: { plan: edited } } });
    await waitForStatus(h.engine, runId, ["completed"]);
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "plan_proposed").at(-1)?.plan, "the run's plan (the last proposed) is the edit").toEqual(edited);
    expect(ofType(events, "plan_node_started").map((e) => e.nodeId)).toEqual(["flight-researcher", "itinerary-planner"]);
    expect(ofType(events, "plan_finished")[0]).toMatchObject({ outcome: "completed", completed: 2 });
    const itineraryRun = ofType(events, "plan_node_started").find((e) => e.nodeId === "itinerary-planner")!;
    const brief = (await h.engine.getHistory(itineraryRun.runId)).find((m) => m.role === "user")?.content ?? "";
    expect(brief).toMatch(/^Objective: Write the itinerary from the flights alone/);
    const record = await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } });
    expect(JSON.parse(record.editedArguments ?? "{}")).toEqual({ plan: edited });
    replayable.push(runId);
  });

  it("a rejection's reason goes to the planner, which plans once more for approval", async () => {
    const { runId, approval } = await startWaiting("Plan a trip to Oslo");
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "budget hotels only", decidedBy: approver });
    const second = await pendingPlan(runId, approval.id);
    expect(second.toolName).toBe(PLAN_APPROVAL_TOOL);
    const history = await h.engine.getHistory(runId);
    expect(history.some((m) => m.role === "user" && m.content.startsWith(`${approver.email} rejected this plan: budget hotels only`)), "the planner read the reason").toBe(true);
    // The demo planner writes its objectives from the latest message: the new plan carries the reason.
    expect(planOf(second).nodes.every((n) => n.objective.includes("budget hotels only"))).toBe(true);
    expect(ofType(await h.engine.getEvents(runId), "plan_node_started")).toEqual([]);

    await h.engine.decideApproval(runId, { approvalId: second.id, approved: true, decidedBy: approver });
    await waitForStatus(h.engine, runId, ["completed"]);
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "plan_proposed").map((e) => e.plan)).toEqual([planOf(approval), planOf(second)]);
    expect(ofType(events, "approval_decided").map((e) => e.status)).toEqual(["rejected", "approved"]);
    replayable.push(runId);
  });

  it("a second rejection fails the run plan_invalid with its reason", async () => {
    const { runId, approval } = await startWaiting("Plan a trip to Rome");
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "too many flights", decidedBy: approver });
    const second = await pendingPlan(runId, approval.id);
    await h.engine.decideApproval(runId, { approvalId: second.id, approved: false, reason: "still too many flights", decidedBy: approver });
    const failed = await waitForStatus(h.engine, runId, ["failed"]);
    expect(failed.error).toMatchObject({ reason: "plan_invalid", message: `${approver.email} rejected the plan again: still too many flights` });
    expect(ofType(await h.engine.getEvents(runId), "plan_node_started")).toEqual([]);
    replayable.push(runId);
  });

  it("an expiry rejects: the run fails plan_invalid before its own timeout", async () => {
    const { runId, approval } = await startWaiting("Plan a trip to Bergen", { runTimeoutSeconds: 4 });
    expect(Date.parse(approval.expiresAt) - Date.parse(approval.requestedAt)).toBeLessThan(4000);
    const failed = await waitForStatus(h.engine, runId, ["failed"], 20_000);
    expect(failed.error).toMatchObject({ reason: "plan_invalid", message: "the plan's approval expired before an approver decided" });
    const record = await h.db.approvalRecord.findUniqueOrThrow({ where: { id: approval.id } });
    expect(record.status).toBe("expired");
    replayable.push(runId);
  });

  it("replays every execution of the runs above on today's code", async () => {
    const replayed = await replayRunTrees(h, replayable);
    // The trip's nodes are tool-less and run inline (activities of each run): every run is one execution.
    expect(replayed).toBeGreaterThanOrEqual(replayable.length);
  });
});
