// The inbox never hides a waiting approval because its run did not answer.
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../contract/types";
import { collectPendingApprovals, PENDING_QUERY_CONCURRENCY } from "./pending-approvals";

const approval = (runId: string, unconfirmed = false): ApprovalRequest => ({
  id: `a-${runId}`,
  runId,
  parentRunId: null,
  rootRunId: runId,
  agentName: "payer",
  toolName: "ledger_transfer",
  toolCallId: "c1",
  arguments: {},
  requestedAt: "2026-11-25T00:00:00.000Z",
  expiresAt: "2026-11-26T00:00:00.000Z",
  requiredRole: null,
  requiredApprovals: 1,
  endorsements: [],
  requestedBy: null,
  allowSelfApproval: false,
  onExpiry: "reject",
  status: "pending",
  decision: null,
  ...(unconfirmed ? { unconfirmed: true } : {}),
});

describe("collecting pending approvals across runs", () => {
  it("asks a run that failed once again, and takes the ledger's record of a run that never answers, marked unconfirmed", async () => {
    const tries = new Map<string, number>();
    const told: string[][] = [];
    const result = await collectPendingApprovals(["ok", "flaky", "dead"], {
      ask: async (runId) => {
        tries.set(runId, (tries.get(runId) ?? 0) + 1);
        if (runId === "dead" || (runId === "flaky" && tries.get(runId) === 1)) throw new Error("query timed out");
        return [approval(runId)];
      },
      fromLedger: async (runIds) => runIds.map((id) => approval(id, true)),
      onUnanswered: (runIds) => told.push(runIds),
    });
    expect(result.map((a) => [a.runId, a.unconfirmed ?? false]).sort()).toEqual([
      ["dead", true],
      ["flaky", false],
      ["ok", false],
    ]);
    expect(Object.fromEntries(tries)).toEqual({ ok: 1, flaky: 2, dead: 2 });
    expect(told).toEqual([["dead"]]);
  });

  it("keeps at most PENDING_QUERY_CONCURRENCY queries in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const runIds = Array.from({ length: 100 }, (_, i) => `r${i}`);
    const result = await collectPendingApprovals(runIds, {
      ask: async (runId) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight -= 1;
        return [approval(runId)];
      },
      fromLedger: async () => [],
    });
    expect(result).toHaveLength(100);
    expect(most).toBe(PENDING_QUERY_CONCURRENCY);
  });

  it("answers within its time budget: a run that never answers, and the runs not yet asked, show the ledger's records", async () => {
    const asked: string[] = [];
    const told: string[][] = [];
    const started = Date.now();
    const runIds = ["hung", ...Array.from({ length: PENDING_QUERY_CONCURRENCY * 3 }, (_, i) => `slow${i}`)];
    const result = await collectPendingApprovals(
      runIds,
      {
        ask: (runId) => {
          asked.push(runId);
          // One run never answers (a wedged worker); the others take a while, so the budget ends before all are asked.
          return runId === "hung" ? new Promise<never>(() => undefined) : new Promise((resolve) => setTimeout(() => resolve([approval(runId)]), 40));
        },
        fromLedger: async (ids) => ids.map((id) => approval(id, true)),
        onUnanswered: (ids) => told.push(ids),
      },
      { budgetMs: 100 },
    );
    expect(Date.now() - started, "the budget, not the hung query, decides when it answers").toBeLessThan(1_000);
    expect(result.find((a) => a.runId === "hung"), "the hung run's approval is shown from the ledger").toMatchObject({ unconfirmed: true });
    expect(asked.length, "runs not reached within the budget are not asked").toBeLessThan(runIds.length);
    expect(result.map((a) => a.runId).sort(), "every run is in the answer once, asked or not").toEqual([...runIds].sort());
    expect(told).toHaveLength(1);
  });
});
