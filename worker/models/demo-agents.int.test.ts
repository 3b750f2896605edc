// The seeded demo agents of issue 16 on the real engine, driven by the demo
// model in plain English: a typed answer, a routed task (and a re-route when
// the chosen specialist fails), and a handoff to a specialist whose refund
// waits for an approver.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import type { RunEvent } from "../../lib/contract/types";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe("seeded demo agents in plain English", () => {
  it("invoice-triage looks the invoice up and answers with typed data", async () => {
    const { runId } = await h.engine.startRun({ graphName: "invoice-triage", task: "Why was invoice INV-1001 rejected?" });
    const summary = await waitForStatus(h.engine, runId, ["completed", "failed"]);
    expect(summary.status, JSON.stringify(summary.error)).toBe("completed");
    expect(summary.outputData).toEqual({
      answer: "Invoice INV-1001 (1250.00 USD) is rejected: missing purchase order.",
      confidence: 0.9,
      sources: ["lookup_invoice"],
      action_required: false,
      escalation_reason: null,
    });
    expect(ofType(await h.engine.getEvents(runId), "output_invalid")).toEqual([]);
  });

  it("help-desk routes an invoice question to billing, whose answer is the run's", async () => {
    const { runId } = await h.engine.startRun({ graphName: "help-desk", task: "Why was invoice INV-1001 rejected?" });
    const summary = await waitForStatus(h.engine, runId, ["completed", "failed"]);
    expect(summary).toMatchObject({ status: "completed", routedTo: "billing", output: "Invoice INV-1001 (1250.00 USD) is rejected: missing purchase order." });
    expect(ofType(await h.engine.getEvents(runId), "routing_decided")[0]?.decision).toMatchObject({ target: "billing", confidence: 0.9, chosen: "billing", fallbackTaken: false });
  });

  it("help-desk routes again when technical fails: nothing else matches, so the default agent (general) takes it", async () => {
    const task = "I get an error when I try to login\n@technical: fail model";
    const { runId } = await h.engine.startRun({ graphName: "help-desk", task });
    const summary = await waitForStatus(h.engine, runId, ["completed", "failed"], 60_000);
    expect(summary).toMatchObject({ status: "completed", routedTo: "general", output: `general received: ${task}` });
    const events = await h.engine.getEvents(runId);
    expect(ofType(events, "routed_agent_failed").map((e) => e.agentName)).toEqual(["technical"]);
    expect(ofType(events, "routing_decided").map((e) => [e.decision.target, e.decision.chosen])).toEqual([
      ["technical", "technical"],
      ["billing", "general"],
    ]);
  });

  it("front-desk hands a refund to the refund specialist, whose transfer waits for an approver", async () => {
    const { runId } = await h.engine.startRun({ graphName: "front-desk", task: "I want a refund for order A-1003" });
    await waitForStatus(h.engine, runId, ["awaiting_approval", "failed", "completed"]);
    const summary = await h.engine.getRun(runId);
    expect(summary.status).toBe("awaiting_approval");
    expect(ofType(await h.engine.getEvents(runId), "handoff")).toMatchObject([{ from: "front-desk", to: "refund-specialist", depth: 1, context: "summary" }]);
    await h.engine.cancelRun(runId);
  });
});
