// Plan and execute on the real Temporal dev server (issue 17): the planner's
// plan is validated and repaired, nodes run as child runs the moment their
// dependencies are done (independent ones at once, within the concurrency),
// failures skip their dependents while independent branches go on, and
// cancelling the run stops its nodes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { replayRunTrees } from "../../scripts/test-support/replay";
import type { RunEvent } from "../../lib/contract/types";
import tripPlanner from "../../lib/agents/demo/trip-planner.json";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

const replayable: string[] = [];
const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
const trip = (plan: Record<string, unknown> = {}) => ({ ...tripPlanner, mode: "plan-and-execute" as const, plan: { ...tripPlanner.plan, ...plan }, limits: { ...tripPlanner.limits, followUpWindowSeconds: 0 } });

describe("plan and execute", () => {
  it("runs the trip plan: both researchers at once, the itinerary once both are done, its answer the run's", async () => {
    const { runId } = await h.engine.startRun({ graph: trip(), task: "Plan a 3-day trip to Paris in June\n@itinerary-planner: answer: Day 1 Louvre, day 2 Orsay, day 3 Versailles" });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("Day 1 Louvre, day 2 Orsay, day 3 Versailles");
    const events = await h.engine.getEvents(runId);
    const plan = ofType(events, "plan_proposed")[0]?.plan;
    expect(plan?.nodes.map((n) => [n.id, n.dependsOn])).toEqual([
      ["flight-researcher", []],
      ["hotel-researcher", []],
      ["itinerary-planner", ["flight-researcher", "hotel-researcher"]],
    ]);
    const started = ofType(events, "plan_node_started");
    const finished = ofType(events, "plan_node_finished");
    const seqOf = (list: { nodeId: string; seq: number }[], id: string) => list.find((e) => e.nodeId === id)?.seq ?? -1;
    // Parallel: the second researcher started before the first finished.
    expect(seqOf(started, "hotel-researcher")).toBeLessThan(Math.min(seqOf(finished, "flight-researcher"), seqOf(finished, "hotel-researcher")));
    // The itinerary started only once both had finished.
    expect(seqOf(started, "itinerary-planner")).toBeGreaterThan(Math.max(seqOf(finished, "flight-researcher"), seqOf(finished, "hotel-researcher")));
    expect(finished.map((e) => e.status)).toEqual(["completed", "completed", "completed"]);
    expect(ofType(events, "plan_finished")[0]).toMatchObject({ outcome: "completed", completed: 3, failed: 0, skipped: 0 });
    // Each node is a sub-run of the plan run with its objective and its dependencies' results.
    const itinerary = started.find((e) => e.nodeId === "itinerary-planner")!;
    expect(await h.engine.getRun(itinerary.runId)).toMatchObject({ agentName: "itinerary-planner", parentRunId: runId, status: "completed" });
    // The dependencies' results travel by reference (claim check): the node's message names their runs, not their text.
    const brief = (await h.engine.getHistory(itinerary.runId)).find((m) => m.role === "user");
    expect(brief?.content).toMatch(/^Objective: itinerary planner: Plan a 3-day trip/);
    expect(brief?.content).toMatch(/Results of the nodes this one depends on:$/);
    const runOf = (id: string) => started.find((e) => e.nodeId === id)?.runId;
    expect(brief?.role === "user" ? brief.results : undefined).toEqual([
      { nodeId: "flight-researcher", agent: "flight-researcher", runId: runOf("flight-researcher") },
      { nodeId: "hotel-researcher", agent: "hotel-researcher", runId: runOf("hotel-researcher") },
    ]);
    // Tool-less researchers ran inline (no workflow of their own), and are runs all the same.
    const flight = started.find((e) => e.nodeId === "flight-researcher")!;
    expect(await h.engine.getRun(flight.runId)).toMatchObject({ agentName: "flight-researcher", parentRunId: runId, status: "completed" });
    await expect(h.client.workflow.getHandle(flight.runId).describe()).rejects.toThrow(/not found/i);
    replayable.push(runId);
  });

  it("a node's model reads its dependencies' results from the ledger: the itinerary builds on what the researchers found", async () => {
    const { runId } = await h.engine.startRun({ graph: trip(), task: "Plan a 2-day trip to Lisbon" });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    // The demo itinerary names the dependency lines it was given; its message holds only references to them.
    expect(summary.output).toMatch(/^Itinerary for 2 days in Lisbon:/);
    expect(summary.output).toContain("Built on: flight-researcher, hotel-researcher.");
    replayable.push(runId);
  });

  it("skips the dependents of a node that failed after its retry, lets independent branches finish: partially_failed", async () => {
    const { runId } = await h.engine.startRun({ graph: trip(), task: "Plan a trip to Rome\n@hotel-researcher: fail model" });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    const events = await h.engine.getEvents(runId);
    const finished = Object.fromEntries(ofType(events, "plan_node_finished").map((e) => [e.nodeId, e]));
    expect(finished["flight-researcher"]).toMatchObject({ status: "completed" });
    expect(finished["hotel-researcher"]).toMatchObject({ status: "failed", attempts: 2, reason: expect.stringMatching(/model_error/) });
    expect(finished["itinerary-planner"]).toMatchObject({ status: "skipped", runId: null, reason: "dependency hotel-researcher failed" });
    expect(ofType(events, "plan_node_started").filter((e) => e.nodeId === "hotel-researcher").map((e) => e.attempt)).toEqual([1, 2]);
    expect(ofType(events, "plan_finished")[0]).toMatchObject({ outcome: "partially_failed", completed: 1, failed: 1, skipped: 1 });
    expect(summary.output).toContain("Not done: hotel-researcher (failed), itinerary-planner (skipped)");
    replayable.push(runId);
  });

  it("fails with plan_failed when no node completes", async () => {
    const { runId } = await h.engine.startRun({ graph: trip({ nodeRetries: 0 }), task: "Plan a trip\n@flight-researcher: fail model\n@hotel-researcher: fail model" });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error).toMatchObject({ reason: "plan_failed", message: "every node of the plan failed or was skipped (2 failed, 1 skipped)" });
  });

  it("repairs an invalid plan, and fails with plan_invalid naming the cycle when it stays invalid", async () => {
    const repaired = await h.engine.startRun({ graph: trip(), task: "Plan a trip\n@trip-planner: invalid 1" });
    await waitForStatus(h.engine, repaired.runId, ["completed"]);
    expect(ofType(await h.engine.getEvents(repaired.runId), "plan_proposed").map((e) => e.attempt)).toEqual([2]);

    const cyclic = { nodes: [{ id: "a", agent: "flight-researcher", objective: "x", dependsOn: ["b"] }, { id: "b", agent: "hotel-researcher", objective: "y", dependsOn: ["a"] }] };
    const { runId } = await h.engine.startRun({ graph: trip(), task: `Plan a trip\n@trip-planner: return ${JSON.stringify(cyclic)}` });
    const summary = await waitForStatus(h.engine, runId, ["failed"]);
    expect(summary.error?.reason).toBe("plan_invalid");
    const failed = ofType(await h.engine.getEvents(runId), "run_failed")[0];
    expect(failed?.details?.errors).toEqual(["cycle: a → b → a"]);
    expect(ofType(await h.engine.getEvents(runId), "plan_node_started")).toEqual([]);
    replayable.push(repaired.runId, runId);
  });

  it("runs at most `concurrency` nodes at once", async () => {
    const wide = { nodes: Array.from({ length: 6 }, (_, i) => ({ id: `n${i}`, agent: i % 2 ? "flight-researcher" : "hotel-researcher", objective: `part ${i}`, dependsOn: [] })) };
    const { runId } = await h.engine.startRun({ graph: trip({ concurrency: 2 }), task: `Research\n@trip-planner: return ${JSON.stringify(wide)}\nthink 150` });
    await waitForStatus(h.engine, runId, ["completed"], 60_000);
    let running = 0;
    let peak = 0;
    for (const e of await h.engine.getEvents(runId)) {
      if (e.type === "plan_node_started") peak = Math.max(peak, ++running);
      if (e.type === "plan_node_finished" && e.status !== "skipped") running--;
    }
    expect(peak).toBe(2);
  });

  it("cancelling the run stops its running nodes", async () => {
    const { runId } = await h.engine.startRun({ graph: trip(), task: "Plan a slow trip\n@flight-researcher: think 30000\n@hotel-researcher: think 30000" });
    const started = await eventually(() => h.engine.getEvents(runId), (events) => ofType(events, "plan_node_started").length >= 2, 20_000, "two nodes to start");
    await h.engine.cancelRun(runId);
    await waitForStatus(h.engine, runId, ["cancelled"]);
    // The researchers run inline (activities of the plan's run): each node's own run records its cancellation.
    for (const node of ofType(started, "plan_node_started")) {
      const child = await eventually(() => h.engine.getRun(node.runId), (run) => run.status !== "thinking", 20_000, `node ${node.nodeId} to stop`);
      expect(child.status).toBe("cancelled");
    }
  });

  it("replays every execution of the plan runs above, nodes included", async () => {
    const replayed = await replayRunTrees(h, replayable);
    // The trip's nodes are tool-less: activities of the plan's run, replayed with it (nodes with tools, child runs, replay in orchestration-edges).
    expect(replayed).toBeGreaterThanOrEqual(replayable.length);
  });
});
