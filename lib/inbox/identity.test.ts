import { describe, expect, it } from "vitest";
import { describeRun, firstLine, graphLabel, isMine, shortRunId, starterLabel } from "./identity";
import type { InboxItem } from "./schemas";

const item = (over: Partial<InboxItem>) =>
  ({
    id: "ap-1",
    runId: "treasurer-0f3c9a2e-1111-4222-8333-4c5d6e7f8a9b",
    identity: { graphName: "treasury", version: 3, task: "Pay the rent", startedBy: { email: "bo@zap.local", name: "Bo Builder" } },
    decidedBefore: [],
    ...over,
  }) as InboxItem;

describe("telling waiting calls apart", () => {
  it("takes a task's first non-empty line, cut with an ellipsis", () => {
    expect(firstLine("\n  Pay the rent  \ntool ledger_transfer {}")).toBe("Pay the rent");
    expect(firstLine("")).toBe("");
    const long = firstLine("x".repeat(400));
    expect(long).toHaveLength(160);
    expect(long.endsWith("…")).toBe(true);
  });

  it("names the graph with its version, the starter with name and email, the run by its last 8 characters", () => {
    const it1 = item({});
    expect(graphLabel(it1.identity)).toBe("treasury v3");
    expect(graphLabel({ graphName: "treasury", version: null, task: "", startedBy: null })).toBe("treasury");
    expect(graphLabel(undefined)).toBe("inline graph");
    expect(starterLabel(it1.identity)).toBe("Bo Builder (bo@zap.local)");
    expect(starterLabel({ graphName: null, version: null, task: "", startedBy: { email: "k@zap.local", name: null } })).toBe("k@zap.local");
    expect(starterLabel(undefined)).toBe("unknown");
    expect(shortRunId(it1.runId)).toBe("4c5d6e7f8a9b".slice(-8));
    expect(describeRun(it1)).toBe("run 6e7f8a9b “Pay the rent” · started by Bo Builder (bo@zap.local)");
  });

  it("mine: runs I started, or runs where I decided before", () => {
    expect(isMine(item({}), "bo@zap.local")).toBe(true);
    expect(isMine(item({}), "ada@zap.local")).toBe(false);
    expect(isMine(item({ decidedBefore: ["ada@zap.local"] }), "ada@zap.local")).toBe(true);
    expect(isMine(item({ identity: undefined }), "bo@zap.local")).toBe(false);
  });
});
