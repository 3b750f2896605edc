// A query never holds its caller past its deadline, and the ledger fallback is
// logged once a minute per run and question, not on every inbox refresh.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Client } from "@temporalio/client";
import { logLedgerFallback, QueryTimedOut, withQueryDeadline } from "./query-deadline";

/** A client whose calls run as given, recording the gRPC deadline each was given. */
function fakeClient(deadlines: number[]): Client {
  const client: Pick<Client, "withDeadline"> = {
    withDeadline: <R,>(deadline: number | Date, fn: () => Promise<R>) => {
      deadlines.push(Number(deadline));
      return fn();
    },
  };
  return client as Client;
}

afterEach(() => vi.restoreAllMocks());

describe("withQueryDeadline", () => {
  it("passes the deadline to gRPC and answers with the query's result in time", async () => {
    const deadlines: number[] = [];
    const before = Date.now();
    await expect(withQueryDeadline(fakeClient(deadlines), "r1", 1_000, async () => "answer")).resolves.toBe("answer");
    expect(deadlines[0]).toBeGreaterThanOrEqual(before + 1_000);
  });

  it("rejects with QueryTimedOut at the deadline even when the call never settles (a connection that does not answer)", async () => {
    const started = Date.now();
    const error = await withQueryDeadline(fakeClient([]), "r1", 50, () => new Promise<never>(() => undefined)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QueryTimedOut);
    expect((error as QueryTimedOut).runId).toBe("r1");
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("passes the query's own failure on (its caller falls back to the ledger)", async () => {
    const failure = new Error("Unable to query workflow due to Workflow Task in failed state.");
    await expect(withQueryDeadline(fakeClient([]), "r1", 1_000, () => Promise.reject(failure))).rejects.toBe(failure);
  });
});

describe("logLedgerFallback", () => {
  it("logs a run's fallback once a minute per question", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const runId = `r-${Math.random()}`;
    logLedgerFallback(runId, "pendingApprovals", new Error("boom"), 1_000);
    logLedgerFallback(runId, "pendingApprovals", new Error("boom"), 30_000);
    logLedgerFallback(runId, "conversations", new Error("boom"), 30_000);
    logLedgerFallback(runId, "pendingApprovals", new Error("boom"), 61_001);
    expect(warn).toHaveBeenCalledTimes(3);
    expect(warn.mock.calls[0]?.[0]).toMatch(new RegExp(`run ${runId} did not answer the pendingApprovals query \\(Error: boom\\); answered from the run ledger`));
  });
});
