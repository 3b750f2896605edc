// The approval rule's reminder and escalation settings (lib/agents/schemas.ts):
// optional, whole minutes within 30 days, escalating to a role or a Slack channel.
import { describe, expect, it } from "vitest";
import { approvalRuleSchema } from "../agents/schemas";

describe("approval rule reminders and escalation", () => {
  it("are absent unless set, so existing rules mean what they meant", () => {
    const rule = approvalRuleSchema.parse({ pattern: "ledger_*" });
    expect(rule).not.toHaveProperty("remindAfterMinutes");
    expect(rule).not.toHaveProperty("escalateTo");
  });

  it("take minutes and a role or a Slack channel", () => {
    expect(approvalRuleSchema.parse({ pattern: "x", remindAfterMinutes: 10, escalateAfterMinutes: 30, escalateTo: "admin" })).toMatchObject({ remindAfterMinutes: 10, escalateAfterMinutes: 30, escalateTo: "admin" });
    expect(approvalRuleSchema.parse({ pattern: "x", escalateAfterMinutes: 5, escalateTo: "slack:C0ESCALATE" }).escalateTo).toBe("slack:C0ESCALATE");
  });

  it("refuse a fraction, zero, more than 30 days, and anyone else to escalate to", () => {
    for (const bad of [{ remindAfterMinutes: 1.5 }, { remindAfterMinutes: 0 }, { escalateAfterMinutes: 30 * 24 * 60 + 1 }, { escalateTo: "everyone" }, { escalateTo: "slack:" }, { escalateTo: "mailto:x@y.z" }]) {
      expect(approvalRuleSchema.safeParse({ pattern: "x", ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
