import { describe, expect, it } from "vitest";
import { routedToText } from "./routing-label";

describe("routedToText", () => {
  it("names the agent a router gave the task to", () => {
    expect(routedToText({ routedTo: "billing", error: null })).toBe("billing");
    expect(routedToText({ routedTo: null, error: null }), "a run that did not route says nothing").toBeNull();
  });

  it("never says a run that ran out of agents was routed to the last one it tried", () => {
    const failed = { routedTo: "billing", error: { reason: "routing_exhausted", details: { attempts: [{ agentName: "billing" }, { agentName: "general" }] } } };
    expect(routedToText(failed)).toBe("no agent: routing exhausted (tried billing, general)");
    expect(routedToText({ routedTo: "billing", error: { reason: "routing_exhausted" } }), "without the attempts (the list): the last one tried").toBe("no agent: routing exhausted (tried billing)");
    expect(routedToText({ routedTo: "billing", error: { reason: "model_error" } }), "another failure after routing: it was routed").toBe("billing");
  });
});
