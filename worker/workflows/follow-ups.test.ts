import { describe, expect, it } from "vitest";
import { agentGraphSchema, runLimitsSchema } from "../../lib/agents/schemas";
import type { UserMessageSignal } from "../../lib/contract/workflow";
import { followUpPolicyOf, runIsWorking, takeTurnMessages } from "./follow-ups";

describe("follow-up policy", () => {
  it("defaults to enqueue, so every saved graph keeps queueing messages", () => {
    expect(runLimitsSchema.parse({}).followUps).toBe("enqueue");
    expect(agentGraphSchema.parse({ entryAgent: "a", agents: [{ name: "a" }] }).limits.followUps).toBe("enqueue");
    expect(runLimitsSchema.parse({ followUps: "interrupt" }).followUps).toBe("interrupt");
  });

  it("refuses an unknown policy, naming the field", () => {
    const result = agentGraphSchema.safeParse({ entryAgent: "a", agents: [{ name: "a" }], limits: { followUps: "drop" } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["limits", "followUps"]);
  });

  it("applies the graph's policy only in executions that asked the patch", () => {
    expect(followUpPolicyOf({ followUps: "reject" }, { followUpPolicy: true })).toBe("reject");
    expect(followUpPolicyOf({ followUps: "interrupt" }, { followUpPolicy: false }), "an execution from before the patch queues every message").toBe("enqueue");
    expect(followUpPolicyOf({}, { followUpPolicy: true }), "a graph sent by an older web server has no policy").toBe("enqueue");
  });

  it("counts a run as working while in a turn or with a message queued (its own task included)", () => {
    expect(runIsWorking({ inTurn: false, inbox: [] })).toBe(false);
    expect(runIsWorking({ inTurn: true, inbox: [] })).toBe(true);
    expect(runIsWorking({ inTurn: false, inbox: [{ content: "task", initial: true }] })).toBe(true);
  });

  it("starts a turn with one queued message, or with every interrupting message together", () => {
    const queued: UserMessageSignal[] = [{ content: "a" }, { content: "b" }];
    expect(takeTurnMessages(queued).map((m) => m.content)).toEqual(["a"]);
    expect(queued.map((m) => m.content)).toEqual(["b"]);
    const interrupting: UserMessageSignal[] = [{ content: "x", interrupting: true }, { content: "y", interrupting: true }, { content: "z" }];
    expect(takeTurnMessages(interrupting).map((m) => m.content)).toEqual(["x", "y"]);
    expect(interrupting.map((m) => m.content)).toEqual(["z"]);
    expect(takeTurnMessages([])).toEqual([]);
  });
});
