import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { agentGraphSchema, type AgentGraph, type ApprovalRule } from "@/lib/agents/schemas";
import { importGraphValue } from "@/lib/agents/graph-json";
import { validateAgentGraph } from "@/lib/agents/validate";
import { ApprovalReminderFields, escalationChoice, withEscalationChoice, withMinutes, withSlackChannel } from "./approval-reminder-fields";
import { ApprovalRules } from "./approval-rules";
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
    const html = renderToStaticMarkup(createElement(ApprovalReminderFields, { rule: rule0(graph), r: 0, base, issues: validateAgentGraph(graph), readOnly: true, set: ignore }));
    expect(html).toMatch(/<input id="rule-0-remind"[^>]*disabled=""/);
    expect(html).toMatch(/<select id="rule-0-escalate-to"[^>]*disabled=""/);
  });
});
