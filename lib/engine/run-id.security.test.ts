// Other workflows share the Temporal namespace: the engine client touches only
// runs it knows (a row of the runs table), so an id from elsewhere cannot be
// cancelled, signalled, queried or decided through the dashboard or its API.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { RunNotFound } from "./errors";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness({ worker: false });
});
afterAll(async () => h?.stop());

describe("run ids are checked against the runs table before any Temporal call", () => {
  it("a foreign workflow cannot be cancelled, messaged, decided or read, and keeps running", async () => {
    // Someone else's workflow in the same namespace (no worker polls its queue: it stays running).
    const foreignId = `payroll-${randomUUID()}`;
    const foreign = await h.client.workflow.start("payrollWorkflow", { taskQueue: `foreign-${randomUUID()}`, workflowId: foreignId, args: [] });
    try {
      await expect(h.engine.cancelRun(foreignId)).rejects.toBeInstanceOf(RunNotFound);
      await expect(h.engine.sendMessage(foreignId, "hello")).rejects.toBeInstanceOf(RunNotFound);
      await expect(h.engine.decideApproval(foreignId, { approvalId: "a-1", approved: true, decidedBy: { id: "u", email: "admin@zap.local", role: "admin" } })).rejects.toBeInstanceOf(RunNotFound);
      await expect(h.engine.getRun(foreignId)).rejects.toBeInstanceOf(RunNotFound);
      await expect(h.engine.getPendingApprovals(foreignId)).rejects.toBeInstanceOf(RunNotFound);
      await expect(h.engine.getConversations(foreignId)).rejects.toBeInstanceOf(RunNotFound);
      const description = await foreign.describe();
      expect(description.status.name, "the foreign workflow was not cancelled").toBe("RUNNING");
      const history = await foreign.fetchHistory();
      const touched = (history.events ?? []).filter((e) => e.workflowExecutionCancelRequestedEventAttributes || e.workflowExecutionSignaledEventAttributes);
      expect(touched, "no cancel request or signal reached it").toEqual([]);
    } finally {
      await foreign.terminate("test over");
    }
  });
});
