// The approval rule's reminder and escalation settings (lib/agents/schemas.ts):
// optional, whole minutes within 30 days, escalating to a role or a Slack channel.
import { describe, expect, it } from "vitest";
import { agentGraphSchema, approvalRuleSchema } from "../agents/schemas";

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

describe("a graph's budget and plan reminders (limits.budgetReminders, plan.approvalReminders)", () => {
  const graph = (extra: Record<string, unknown>) => ({ entryAgent: "main", agents: [{ name: "main" }], ...extra });

  it("are absent unless set, and take the rule's fields", () => {
    const plain = agentGraphSchema.parse(graph({ plan: {} }));
    expect(plain.limits).not.toHaveProperty("budgetReminders");
    expect(plain.plan).not.toHaveProperty("approvalReminders");
    const set = agentGraphSchema.parse(
      graph({ limits: { onBudget: "ask", budgetReminders: { remindAfterMinutes: 5, escalateAfterMinutes: 15, escalateTo: "admin" } }, plan: { approval: true, approvalReminders: { escalateAfterMinutes: 7, escalateTo: "slack:C0ESCALATE" } } }),
    );
    expect(set.limits.budgetReminders).toEqual({ remindAfterMinutes: 5, escalateAfterMinutes: 15, escalateTo: "admin" });
    expect(set.plan?.approvalReminders).toEqual({ escalateAfterMinutes: 7, escalateTo: "slack:C0ESCALATE" });
  });

  it("refuse an escalation without its delay or its audience, one not after the reminder, and the rule's bad values", () => {
    for (const bad of [{ escalateAfterMinutes: 10 }, { escalateTo: "admin" }, { remindAfterMinutes: 10, escalateAfterMinutes: 10, escalateTo: "admin" }, { remindAfterMinutes: 0 }, { escalateTo: "everyone", escalateAfterMinutes: 5 }]) {
      expect(agentGraphSchema.safeParse(graph({ limits: { budgetReminders: bad } })).success, `limits ${JSON.stringify(bad)}`).toBe(false);
      expect(agentGraphSchema.safeParse(graph({ plan: { approvalReminders: bad } })).success, `plan ${JSON.stringify(bad)}`).toBe(false);
    }
  });
});
