import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { agentGraphSchema, type AgentGraph, type ApprovalReminders, type ApprovalRule } from "@/lib/agents/schemas";
import { importGraphValue } from "@/lib/agents/graph-json";
import { validateAgentGraph } from "@/lib/agents/validate";
import { ApprovalReminderFields, escalationChoice, withEscalationChoice, withMinutes, withSlackChannel } from "./approval-reminder-fields";
import { ApprovalRules } from "./approval-rules";
import { BudgetReminderSettings, withBudgetReminders, withOnBudget } from "./budget-reminders";
import { PlanSettingsGroup, withPlanApproval, withPlanMode, withPlanReminders } from "./plan-settings";
import { validateDraft } from "./use-designer";
import { DEFAULT_WORKSPACE_POLICY } from "@/lib/policy/schemas";

const graph: AgentGraph = agentGraphSchema.parse({ entryAgent: "main", agents: [{ name: "main", tools: ["calculator"], approvalRules: [{ pattern: "calculator" }] }] });
const base = "agents[0].approvalRules[0]";
const ignore = () => undefined;
const rule0 = (g: AgentGraph): ApprovalRule => g.agents[0]!.approvalRules[0]!;
const withRule = (rule: ApprovalRule): AgentGraph => ({ ...graph, agents: [{ ...graph.agents[0]!, approvalRules: [rule] }] });
/** Markup without React's comment markers, so texts split by expressions read whole. */
const render = (g: AgentGraph) =>
  renderToStaticMarkup(
    createElement(ApprovalRules, { agent: g.agents[0]!, index: 0, toolNames: ["calculator"], issues: validateAgentGraph(g), readOnly: false, onChange: ignore, policy: DEFAULT_WORKSPACE_POLICY }),
  ).replace(/<!-- -->/g, "");
/** The graph as the designer saves it, read back the way an import or a stored version is. */
const roundTrip = (g: AgentGraph): string => {
  const back = importGraphValue(JSON.parse(JSON.stringify(g)));
  if (!back.ok) throw new Error(JSON.stringify(back.errors));
  return JSON.stringify(back.graph);
};

describe("an approval rule's reminder and escalation fields", () => {
  it("are labelled, off by default, and offer the roles that decide approvals or a Slack channel", () => {
    const html = render(graph);
    expect(html).toMatch(/<label for="rule-0-remind"[^>]*>Remind after \(min\)<\/label>/);
    expect(html).toMatch(/<label for="rule-0-escalate"[^>]*>Escalate after \(min\)<\/label>/);
    expect(html).toMatch(/<label for="rule-0-escalate-to"[^>]*>Escalate to<\/label>/);
    expect(html).toMatch(/<input id="rule-0-remind" type="number"[^>]*placeholder="off"[^>]*value=""/);
    expect(html).toContain('<option value="" selected="">no escalation</option>');
    expect(html).toContain('<option value="approver">every approver (email)</option>');
    expect(html).toContain('<option value="admin">every admin (email)</option>');
    const escalateTo = /<select id="rule-0-escalate-to".*?<\/select>/.exec(html)?.[0] ?? "";
    expect(escalateTo, "a role that cannot decide is no choice").not.toMatch(/value="(viewer|builder)"/);
    expect(html).toContain('<option value="slack">a Slack channel…</option>');
    expect(html, "no channel field until Slack is chosen").not.toContain("Slack channel</label>");
  });

  it("set the values in the graph, which validates, renders them and round-trips exactly", () => {
    let rule = withMinutes(rule0(graph), "remindAfterMinutes", "30");
    rule = withMinutes(rule, "escalateAfterMinutes", "120");
    rule = withEscalationChoice(rule, "admin");
    const edited = withRule(rule);
    expect(rule0(edited)).toMatchObject({ remindAfterMinutes: 30, escalateAfterMinutes: 120, escalateTo: "admin" });
    expect(validateAgentGraph(edited).errors).toEqual([]);
    expect(roundTrip(edited)).toBe(JSON.stringify(edited));
    const html = render(edited);
    expect(html).toMatch(/<input id="rule-0-remind"[^>]*value="30"/);
    expect(html).toMatch(/<input id="rule-0-escalate"[^>]*value="120"/);
    expect(html).toContain('<option value="admin" selected="">every admin (email)</option>');

    // Set in another order (who first, then when), the graph reads back equal all the same.
    const whoFirst = withRule(withMinutes(withEscalationChoice(withMinutes(rule0(graph), "escalateAfterMinutes", "120"), "approver"), "remindAfterMinutes", "30"));
    expect(JSON.parse(roundTrip(whoFirst))).toEqual(whoFirst);

    const slack = withRule(withSlackChannel(withEscalationChoice(rule, "slack"), "C0ESCALATE"));
    expect(rule0(slack).escalateTo).toBe("slack:C0ESCALATE");
    expect(validateAgentGraph(slack).errors).toEqual([]);
    expect(roundTrip(slack)).toBe(JSON.stringify(slack));
    const slackHtml = render(slack);
    expect(slackHtml).toContain('<option value="slack" selected="">a Slack channel…</option>');
    expect(slackHtml).toMatch(/<label for="rule-0-slack-channel"[^>]*>Slack channel<\/label>/);
    expect(slackHtml).toMatch(/<input id="rule-0-slack-channel"[^>]*value="C0ESCALATE"/);
  });

  it("remove the keys when cleared, leaving the rule as it was before", () => {
    const set = withEscalationChoice(withMinutes(withMinutes(rule0(graph), "remindAfterMinutes", "30"), "escalateAfterMinutes", "120"), "slack");
    const cleared = withEscalationChoice(withMinutes(withMinutes(set, "remindAfterMinutes", ""), "escalateAfterMinutes", " "), "");
    for (const key of ["remindAfterMinutes", "escalateAfterMinutes", "escalateTo"]) expect(cleared).not.toHaveProperty(key);
    expect(JSON.stringify(withRule(cleared))).toBe(JSON.stringify(graph));
  });

  it("keep a stored role that cannot decide approvals visible as what it is", () => {
    const html = render(withRule({ ...rule0(graph), escalateAfterMinutes: 60, escalateTo: "builder" }));
    expect(html).toContain('<option value="builder" selected="">builder (cannot decide approvals)</option>');
    expect(escalationChoice("slack:#ops")).toBe("slack");
    expect(escalationChoice(undefined)).toBe("");
  });

  it("show an escalation not after the reminder beside the field, and block saving like any error", () => {
    const bad = withRule({ ...rule0(graph), remindAfterMinutes: 60, escalateAfterMinutes: 60, escalateTo: "admin" });
    const validation = validateDraft(bad);
    expect(validation.errors).toEqual([expect.objectContaining({ path: `${base}.escalateAfterMinutes`, message: "escalate must come after the reminder: more than 60 min" })]);
    const html = render(bad);
    expect(html).toContain(`data-testid="field-issues-${base}.escalateAfterMinutes"`);
    expect(html).toContain("escalate must come after the reminder: more than 60 min");
  });

  it("name the half-set escalation and the bad channel with the server's messages", () => {
    const noOne = validateAgentGraph(withRule({ ...rule0(graph), escalateAfterMinutes: 60 }));
    expect(noOne.errors.map((e) => e.path)).toEqual([`${base}.escalateTo`]);
    const noDelay = validateAgentGraph(withRule({ ...rule0(graph), escalateTo: "approver" }));
    expect(noDelay.errors.map((e) => e.path)).toEqual([`${base}.escalateAfterMinutes`]);
    const emptyChannel = withRule(withEscalationChoice({ ...rule0(graph), escalateAfterMinutes: 60 }, "slack"));
    expect(validateAgentGraph(emptyChannel).errors).toEqual([expect.objectContaining({ path: `${base}.escalateTo`, message: "expected a role or slack:<channel id>" })]);
    expect(render(emptyChannel)).toContain("expected a role or slack:&lt;channel id&gt;");
    const zero = validateAgentGraph(withRule(withMinutes(rule0(graph), "remindAfterMinutes", "0")));
    expect(zero.errors.map((e) => e.path)).toEqual([`${base}.remindAfterMinutes`]);
  });

  it("warn, without blocking, of a reminder due only after the request expires", () => {
    const late = validateAgentGraph(withRule({ ...rule0(graph), expiresInSeconds: 3600, remindAfterMinutes: 60 }));
    expect(late.errors).toEqual([]);
    expect(late.warnings).toEqual([expect.objectContaining({ path: `${base}.remindAfterMinutes`, code: "invalid_reminder" })]);
  });

  it("are read-only for a viewer", () => {
    const html = renderToStaticMarkup(createElement(ApprovalReminderFields, { rule: rule0(graph), idPrefix: "rule-0", subject: "rule 1", base, issues: validateAgentGraph(graph), readOnly: true, set: ignore }));
    expect(html).toMatch(/<input id="rule-0-remind"[^>]*disabled=""/);
    expect(html).toMatch(/<select id="rule-0-escalate-to"[^>]*disabled=""/);
  });
});

describe("a budget request's reminder and escalation (limits.budgetReminders)", () => {
  const failing: AgentGraph = agentGraphSchema.parse({ entryAgent: "main", agents: [{ name: "main" }] });
  const asking: AgentGraph = { ...failing, limits: withOnBudget(failing.limits, "ask") };
  const renderBudget = (g: AgentGraph) =>
    renderToStaticMarkup(createElement(BudgetReminderSettings, { graph: g, issues: validateDraft(g), readOnly: false, edit: ignore })).replace(/<!-- -->/g, "");
  const withBudget = (g: AgentGraph, change: (r: ApprovalReminders) => ApprovalReminders): AgentGraph => ({
    ...g,
    limits: withBudgetReminders(g.limits, change(g.limits.budgetReminders ?? {})),
  });

  it("show the approval rule's fields, off, only while the run asks at its budget", () => {
    expect(renderBudget(failing), "a run that fails at its budget asks nobody").toBe("");
    const html = renderBudget(asking);
    expect(html).toContain('role="group" aria-label="Reminder and escalation of the budget request"');
    expect(html).toMatch(/<label for="budget-remind"[^>]*>Remind after \(min\)<\/label>/);
    expect(html).toMatch(/<input id="budget-remind" type="number"[^>]*placeholder="off"[^>]*value=""/);
    expect(html).toMatch(/<label for="budget-escalate-to"[^>]*>Escalate to<\/label>/);
    expect(html).toContain('<option value="admin">every admin (email)</option>');
  });

  it("set the values in the graph, which validates, renders them and round-trips; cleared, the key goes", () => {
    const edited = withBudget(asking, (r) => withEscalationChoice(withMinutes(withMinutes(r, "remindAfterMinutes", "15"), "escalateAfterMinutes", "45"), "admin"));
    expect(edited.limits.budgetReminders).toEqual({ remindAfterMinutes: 15, escalateAfterMinutes: 45, escalateTo: "admin" });
    expect(validateDraft(edited)).toMatchObject({ errors: [], warnings: [] });
    expect(JSON.parse(roundTrip(edited)), "the saved graph reads back equal (key order aside)").toEqual(edited);
    const html = renderBudget(edited);
    expect(html).toMatch(/<input id="budget-remind"[^>]*value="15"/);
    expect(html).toMatch(/<input id="budget-escalate"[^>]*value="45"/);
    expect(html).toContain('<option value="admin" selected="">every admin (email)</option>');

    const cleared = withBudget(edited, (r) => withEscalationChoice(withMinutes(withMinutes(r, "remindAfterMinutes", ""), "escalateAfterMinutes", ""), ""));
    expect(cleared.limits).not.toHaveProperty("budgetReminders");
    expect(JSON.stringify(cleared)).toBe(JSON.stringify(asking));
  });

  it("go with the ask: failing at the budget drops them, and asking again starts without", () => {
    const edited = withBudget(asking, (r) => withMinutes(r, "remindAfterMinutes", "15"));
    const failed = { ...edited, limits: withOnBudget(edited.limits, "fail") };
    expect(failed.limits).not.toHaveProperty("budgetReminders");
    expect(failed.limits.onBudget).toBe("fail");
    expect(withOnBudget(edited.limits, "ask").budgetReminders, "choosing ask again keeps what is set").toEqual({ remindAfterMinutes: 15 });
  });

  it("show an escalation not after the reminder, or without anyone to tell, beside the field as it is typed, and block saving", () => {
    const early = withBudget(asking, (r) => withEscalationChoice(withMinutes(withMinutes(r, "remindAfterMinutes", "30"), "escalateAfterMinutes", "20"), "approver"));
    expect(validateDraft(early).errors).toEqual([expect.objectContaining({ path: "limits.budgetReminders.escalateAfterMinutes", message: "escalate must come after the reminder: more than 30 min" })]);
    const html = renderBudget(early);
    expect(html).toContain('data-testid="field-issues-limits.budgetReminders.escalateAfterMinutes"');
    expect(html).toContain("escalate must come after the reminder: more than 30 min");

    const noOne = withBudget(asking, (r) => withMinutes(r, "escalateAfterMinutes", "60"));
    expect(validateDraft(noOne).errors.map((e) => e.path)).toEqual(["limits.budgetReminders.escalateTo"]);
    expect(renderBudget(noOne)).toContain("choose who hears of the escalation");
    const partial = withBudget(asking, (r) => withMinutes(r, "remindAfterMinutes", "1.5"));
    expect(validateDraft(partial).errors.map((e) => e.path)).toEqual(["limits.budgetReminders.remindAfterMinutes"]);
  });

  it("say so of a setting left with a run that fails at its budget (an imported graph), though the fields are hidden", () => {
    const leftover: AgentGraph = { ...failing, limits: { ...failing.limits, budgetReminders: { remindAfterMinutes: 10 } } };
    expect(renderBudget(leftover)).toContain("never sent: at the token budget the run fails and asks nobody");
  });
});

describe("a plan approval's reminder and escalation (plan.approvalReminders)", () => {
  const planned = withPlanMode(agentGraphSchema.parse({ entryAgent: "lead", agents: [{ name: "lead" }, { name: "researcher" }] }), true);
  const approved: AgentGraph = { ...planned, plan: withPlanApproval(planned.plan!, true) };
  const renderPlan = (g: AgentGraph) =>
    renderToStaticMarkup(createElement(PlanSettingsGroup, { graph: g, issues: validateDraft(g), readOnly: false, edit: ignore })).replace(/<!-- -->/g, "");
  const withPlan = (g: AgentGraph, change: (r: ApprovalReminders) => ApprovalReminders): AgentGraph => ({
    ...g,
    plan: withPlanReminders(g.plan!, change(g.plan?.approvalReminders ?? {})),
  });

  it("show the fields only while the plan waits for approval", () => {
    expect(renderPlan(planned)).not.toContain("Reminder and escalation of the plan approval");
    const html = renderPlan(approved);
    expect(html).toContain('aria-label="Reminder and escalation of the plan approval"');
    expect(html).toMatch(/<label for="plan-approval-remind"[^>]*>Remind after \(min\)<\/label>/);
  });

  it("set a Slack escalation that validates and round-trips; turning the approval off drops it", () => {
    const edited = withPlan(approved, (r) => withSlackChannel(withEscalationChoice(withMinutes(withMinutes(r, "remindAfterMinutes", "10"), "escalateAfterMinutes", "30"), "slack"), "C0123ABCD"));
    expect(edited.plan?.approvalReminders).toEqual({ remindAfterMinutes: 10, escalateAfterMinutes: 30, escalateTo: "slack:C0123ABCD" });
    expect(validateDraft(edited)).toMatchObject({ errors: [], warnings: [] });
    expect(JSON.parse(roundTrip(edited)), "the saved graph reads back equal (key order aside)").toEqual(edited);
    expect(renderPlan(edited)).toMatch(/<input id="plan-approval-slack-channel"[^>]*value="C0123ABCD"/);
    const off = withPlanApproval(edited.plan!, false);
    expect(off).not.toHaveProperty("approvalReminders");
    expect(JSON.stringify(withPlan(edited, () => ({})))).toBe(JSON.stringify(approved));
  });

  it("are checked live with the rest of the plan's settings (the designer's draft validation includes the plan)", () => {
    const early = withPlan(approved, (r) => withEscalationChoice(withMinutes(withMinutes(r, "remindAfterMinutes", "60"), "escalateAfterMinutes", "45"), "admin"));
    expect(validateDraft(early).errors).toEqual([expect.objectContaining({ path: "plan.approvalReminders.escalateAfterMinutes", message: "escalate must come after the reminder: more than 60 min" })]);
    expect(renderPlan(early)).toContain('data-testid="field-issues-plan.approvalReminders.escalateAfterMinutes"');
    const synthesisIsPlanner: AgentGraph = { ...approved, plan: { ...approved.plan!, synthesisAgent: "lead" } };
    expect(validateDraft(synthesisIsPlanner).errors.map((e) => e.path)).toEqual(["plan.synthesisAgent"]);
  });
});
