import { describe, expect, it } from "vitest";
import { describeRun, firstLine, forkEditsLabel, forkLabel, graphLabel, isMine, shortRunId, starterLabel } from "./identity";
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

  it("says a fork's call is a fork of its origin, at which step, and which step someone wrote; an unsaved variant is never named as the saved version", () => {
    const origin = "treasurer-0a1b2c3d-1111-4222-8333-00000000a1b2";
    const edit = { step: "tool calculator", kind: "tool_result" as const, by: "builder@zap.local", at: "2026-11-29T08:00:00.000Z", inherited: false };
    const fork = { originRunId: origin, spanId: "s4", step: "tool calculator", edits: [edit] };
    const forked = item({ identity: { graphName: "treasury", version: null, variantOf: 3, task: "Pay the rent", startedBy: { email: "bo@zap.local", name: null }, fork } });
    expect(graphLabel(forked.identity)).toBe("unsaved variant of treasury v3");
    expect(forkLabel(fork)).toBe("fork of 0000a1b2 at tool calculator (s4)");
    expect(forkLabel({ ...fork, step: null }), "the origin's span is gone: its id still says where").toBe("fork of 0000a1b2 at step s4");
    expect(forkEditsLabel(fork)).toBe("tool calculator result, by builder@zap.local at 2026-11-29T08:00:00.000Z");
    expect(forkEditsLabel({ ...fork, edits: [{ ...edit, step: "inference demo/treasurer", kind: "model_output", inherited: true }] })).toBe(
      "inference demo/treasurer output (in an earlier fork), by builder@zap.local at 2026-11-29T08:00:00.000Z",
    );
    expect(forkEditsLabel({ ...fork, edits: [] }), "a fork that replays recordings only edited nothing").toBe("");
    expect(describeRun(forked)).toBe("run 6e7f8a9b (fork of 0000a1b2 at tool calculator (s4), edited) “Pay the rent” · started by bo@zap.local");
  });
});
