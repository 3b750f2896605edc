// Issue 36 §3: cancelling an experiment follows the rule for runs. An
// experiment's item runs are started as its creator's, and cancelling the
// experiment cancels them; yet any builder could cancel another user's
// experiment (202), while the same builder got 403 cancelling one of its runs.
// Now both answer 403 naming the owner; the owner, admins and the role the
// workspace policy names (`othersRunsRole`) may. Through the real routes with
// builders' keys.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorOf, keyRequest, routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "@/scripts/test-support/api-callers";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

let callers: ApiCallers;
let cancelExperimentRoute: typeof import("@/app/api/experiments/[experimentId]/cancel/route");
let cancelRunRoute: typeof import("@/app/api/runs/[runId]/cancel/route");
let owner: KeyHolder;
let stranger: KeyHolder;

beforeAll(async () => {
  callers = await startApiCallers();
  cancelExperimentRoute = await import("@/app/api/experiments/[experimentId]/cancel/route");
  cancelRunRoute = await import("@/app/api/runs/[runId]/cancel/route");
  owner = await callers.holder("builder", "owner");
  stranger = await callers.holder("builder", "stranger");
});
afterAll(async () => callers?.stop());

/** A running experiment started by `by`, with one item run started as theirs (as the worker starts it). */
async function runningExperiment(id: string, by: KeyHolder): Promise<{ experimentId: string; runId: string }> {
  await callers.db.experiment.create({
    data: { id, name: `experiment of ${by.email}`, datasetId: "ds_0000000000", datasetName: "items", datasetVersion: 1, targets: "[]", scorers: "[]", total: 1, createdById: by.id, createdBy: by.email },
  });
  const runId = `main-${id}-0`;
  await callers.db.run.create({ data: { id: runId, rootRunId: runId, agentName: "main", task: "an item", status: "running", startedBy: by.email, experimentId: id } });
  return { experimentId: id, runId };
}

const cancelExperiment = (holder: KeyHolder, experimentId: string) =>
  cancelExperimentRoute.POST(keyRequest(holder.token, `/api/experiments/${experimentId}/cancel`, { method: "POST" }), routeParams({ experimentId }));
const cancelRun = (holder: KeyHolder, runId: string) => cancelRunRoute.POST(keyRequest(holder.token, `/api/runs/${runId}/cancel`, { method: "POST" }), routeParams({ runId }));

describe("cancelling an experiment follows the rule for runs", () => {
  it("another builder gets 403 naming the owner, for the experiment as for its run; nothing is cancelled or audited", async () => {
    const { experimentId, runId } = await runningExperiment("exp_0wnedbyowner01", owner);
    const experiment = await cancelExperiment(stranger, experimentId);
    expect(experiment.status, await experiment.clone().text()).toBe(403);
    expect((await errorOf(experiment)).message).toBe(
      `Only ${owner.email}, who started it, or an admin may cancel this experiment (the workspace policy lets admins and above act on others' runs)`,
    );
    const run = await cancelRun(stranger, runId);
    expect(run.status, "the same builder is refused the experiment's run alike").toBe(403);
    expect((await callers.db.experiment.findUniqueOrThrow({ where: { id: experimentId } })).status).toBe("running");
    expect(await callers.db.auditEvent.count({ where: { action: "experiment.cancelled", target: experimentId } })).toBe(0);
  });

  it("the owner cancels their own experiment (202, audited)", async () => {
    const { experimentId } = await runningExperiment("exp_0wnedbyowner02", owner);
    const response = await cancelExperiment(owner, experimentId);
    expect(response.status, await response.clone().text()).toBe(202);
    expect((await callers.db.experiment.findUniqueOrThrow({ where: { id: experimentId } })).status).toBe("cancelled");
    const audit = await callers.db.auditEvent.findFirstOrThrow({ where: { action: "experiment.cancelled", target: experimentId } });
    expect(audit.actorId).toBe(owner.id);
  });

  it("an admin may, and so may the role the workspace policy names for others' runs", async () => {
    const admin = await callers.holder("admin", "admin");
    const first = await runningExperiment("exp_0wnedbyowner03", owner);
    expect((await cancelExperiment(admin, first.experimentId)).status).toBe(202);

    const policyRoute = await import("@/app/api/policy/route");
    const { policy } = (await (await policyRoute.GET(keyRequest(admin.token, "/api/policy"), routeParams({}))).json()) as { policy: Record<string, unknown> };
    const changed = await policyRoute.PUT(keyRequest(admin.token, "/api/policy", { method: "PUT", body: { ...policy, othersRunsRole: "builder" } }), routeParams({}));
    expect(changed.status, await changed.clone().text()).toBe(200);
    const second = await runningExperiment("exp_0wnedbyowner04", owner);
    expect((await cancelExperiment(stranger, second.experimentId)).status, "the policy lets builders act on others' runs").toBe(202);
  });
});
