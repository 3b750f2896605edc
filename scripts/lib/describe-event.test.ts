import { describe, expect, it } from "vitest";
import type { RoutingRecord } from "../../lib/contract/types";
import { describeEvent } from "./describe-event";

const at = "2026-01-01T00:00:00Z";
const decision: RoutingRecord = { router: "help-desk", attempt: 1, target: "billing", confidence: 0.4, reason: "mentions an invoice", fallback: null, chosen: "general", fallbackTaken: true, threshold: 0.7 };

describe("describeEvent", () => {
  it("a low-confidence task the default agent took says so, as the run page does", () => {
    expect(describeEvent({ seq: 3, at, type: "routing_decided", decision })).toBe(
      "  ⤳ help-desk routes to general (target billing; confidence 0.4 is below the threshold 0.7 → default agent general): mentions an invoice",
    );
  });

  it("counts with their nouns, singular for one", () => {
    const usage = { inputTokens: 10, outputTokens: 2 };
    expect(describeEvent({ seq: 2, at, type: "inference_completed", iteration: 1, model: "demo/echo", toolCalls: 1, attempts: 1, usage, latencyMs: 5 })).toContain("1 tool call,");
  });
});
