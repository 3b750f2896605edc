// Sub-agents as child workflows the parent messages: several at once,
// multi-turn conversations, idle timeout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import type { SubAgentReply } from "../../lib/contract/types";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => h?.stop());

const teamGraph = (idleSeconds: number) => ({
  entryAgent: "lead",
  agents: [
    { name: "lead", model: "demo/lead", subAgents: ["billing", "shipping"] },
    { name: "billing", model: "demo/billing", description: "refunds and invoices", tools: ["calculator"] },
    { name: "shipping", model: "demo/shipping", description: "deliveries" },
  ],
  limits: { subAgentIdleTimeoutSeconds: idleSeconds, followUpWindowSeconds: 60 },
});

describe("sub-agent conversations", () => {
  it("messages two sub-agents at once, continues one conversation, and gets every reply", async () => {
    const { runId } = await h.engine.startRun({
      graph: teamGraph(120),
      task: ["message billing: What is 2+2? && message shipping: Where is order A-1002?", "reply billing: And doubled?", "answer: team consulted"].join("\n"),
    });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("team consulted");

    const conversations = await h.engine.getConversations(runId);
    const byAgent = Object.fromEntries(conversations.map((c) => [c.agentName, c]));
    expect(byAgent.billing).toMatchObject({ turns: 2, isActive: true, lastResponse: "billing received: And doubled?" });
    expect(byAgent.shipping).toMatchObject({ turns: 1, isActive: true, lastResponse: "shipping received: Where is order A-1002?" });
    expect(byAgent.billing?.conversationId).toMatch(new RegExp(`^${runId}\\.billing-`));

    const history = await h.engine.getHistory(runId);
    const replies = history.filter((m) => m.role === "tool").map((m) => JSON.parse(m.role === "tool" ? m.content : "{}") as SubAgentReply);
    expect(replies.map((r) => [r.agent_name, r.is_complete])).toEqual([
      ["billing", false],
      ["shipping", false],
      ["billing", false],
    ]);
    expect(replies[2]?.conversation_id).toBe(replies[0]?.conversation_id);

    // The child is a workflow of its own, with the parent recorded.
    const child = await h.engine.getRun(byAgent.billing!.conversationId);
    expect(child).toMatchObject({ agentName: "billing", parentRunId: runId, rootRunId: runId, status: "completed" });
    const childHistory = await h.engine.getHistory(byAgent.billing!.conversationId);
    expect(childHistory.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["What is 2+2?", "And doubled?"]);

    const events = await h.engine.getEvents(runId);
    expect(events.filter((e) => e.type === "sub_agent_message").map((e) => e.type === "sub_agent_message" && e.turn)).toEqual([1, 1, 2]);
    const [root] = await h.engine.getTrace(runId);
    const subSpans = root?.children.flatMap((i) => i.children).flatMap((t) => t.children).filter((s) => s.kind === "sub_agent");
    expect(subSpans?.length).toBe(3);
  });

  it("ends an idle conversation after its timeout, and the parent sees it as complete", async () => {
    const { runId } = await h.engine.startRun({ graph: teamGraph(1), task: "message shipping: ping\nanswer: asked" });
    await waitForStatus(h.engine, runId, ["completed"]);
    const [conversation] = await eventually(() => h.engine.getConversations(runId), (list) => list[0]?.isActive === false, 20_000, "the conversation to end");
    // The child tells its parent it is done, writes its last ledger batch, then closes.
    const child = await eventually(() => h.client.workflow.getHandle(conversation!.conversationId).describe(), (d) => d.status.name !== "RUNNING", 20_000, "the conversation's run to close");
    expect(child.status.name).toBe("COMPLETED");

    // Continuing an ended conversation is a tool error the model sees.
    await h.engine.sendMessage(runId, "reply shipping: still there?");
    await eventually(() => h.engine.getEvents(runId), (events) => events.some((e) => e.type === "error" && e.message.includes("has ended")), 20_000, "an error about the ended conversation");
  });
});
