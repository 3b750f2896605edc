import { describe, expect, it } from "vitest";
import { chainOf, loadInbox, precedingText } from "./inbox";
import type { Engine } from "../../engine/client";
import type { Db } from "../../db/prisma";

describe("inbox enrichment", () => {
  it("chains a sub-run to its root, root first", () => {
    const runs = new Map([
      ["root", { id: "root", parentRunId: null, agentName: "lead" }],
      ["mid", { id: "mid", parentRunId: "root", agentName: "payer" }],
      ["leaf", { id: "leaf", parentRunId: "mid", agentName: "clerk" }],
    ]);
    expect(chainOf("leaf", runs, "clerk").map((l) => l.agentName)).toEqual(["lead", "payer", "clerk"]);
    expect(chainOf("unknown", runs, "solo")).toEqual([{ runId: "unknown", agentName: "solo" }]);
  });

  it("finds the assistant message that made the call", () => {
    const rows = [
      { data: JSON.stringify({ role: "assistant", content: "Moving 10 to operating.", tool_calls: [{ id: "call-2", type: "function", function: { name: "t", arguments: "{}" } }] }) },
      { data: JSON.stringify({ role: "assistant", content: "", tool_calls: [{ id: "call-1", type: "function", function: { name: "t", arguments: "{}" } }] }) },
    ];
    expect(precedingText(rows, "call-2")).toEqual({ found: true, text: "Moving 10 to operating." });
    expect(precedingText(rows, "call-1")).toEqual({ found: true, text: null });
    expect(precedingText(rows, "call-9")).toEqual({ found: false, text: null });
  });
});

describe("loadInbox's shared loads", () => {
  /** An engine whose every pending-approvals read waits until the test lets it answer, and counts the reads. */
  function gatedEngine() {
    const gates: (() => void)[] = [];
    let reads = 0;
    const engine = {
      listPendingApprovals: () =>
        new Promise<never[]>((resolve) => {
          reads++;
          gates.push(() => resolve([]));
        }),
    } as unknown as Engine;
    return { engine, reads: () => reads, release: () => gates.shift()?.() };
  }
  const db = {} as Db;
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it("never answers a request with a load that began before it arrived; later arrivals share one load", async () => {
    const { engine, reads, release } = gatedEngine();
    const before = loadInbox(engine, db);
    await settle();
    expect(reads()).toBe(1);
    // Two requests arrive while the first load runs (say, right after a decision): neither may get its answer.
    const afterA = loadInbox(engine, db);
    const afterB = loadInbox(engine, db);
    let afterAnswered = false;
    void afterA.then(() => (afterAnswered = true));
    release();
    await before;
    await settle();
    expect(afterAnswered, "the first load's answer is not the later requests'").toBe(false);
    expect(reads(), "the two later requests share one new load").toBe(2);
    release();
    await Promise.all([afterA, afterB]);
    expect(await afterA).toBe(await afterB);
  });

  it("a failed load does not fail the requests that waited for the next one", async () => {
    let calls = 0;
    const engine = {
      listPendingApprovals: async () => {
        calls++;
        if (calls === 1) throw new Error("visibility down");
        return [];
      },
    } as unknown as Engine;
    const first = loadInbox(engine, db);
    const second = loadInbox(engine, db);
    await expect(first).rejects.toThrow("visibility down");
    await expect(second).resolves.toMatchObject({ items: [] });
  });
});
