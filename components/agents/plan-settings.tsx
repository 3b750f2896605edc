"use client";
// The graph's plan-and-execute settings (issue 17): in that mode the entry
// agent plans a DAG of tasks and the graph's other agents are the cards it
// plans with; the run executes the plan, independent nodes in parallel.
import { planSettingsSchema, type AgentGraph, type ApprovalReminders, type PlanSettings } from "@/lib/agents/schemas";
import type { GraphIssue } from "@/lib/agents/validate";
import { Field, FieldIssues, INPUT, NumberInput } from "./fields";
import { ApprovalReminderFields, remindersOrNone } from "./approval-reminder-fields";

type Issues = { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] };
type Edit = (change: (graph: AgentGraph) => AgentGraph, key: string) => void;

const NUMBER_FIELDS = [
  { key: "maxNodes", label: "Max nodes" },
  { key: "concurrency", label: "Nodes at once" },
  { key: "nodeRetries", label: "Node retries" },
] as const satisfies readonly { key: keyof PlanSettings; label: string }[];

/** The graph with plan-and-execute on (default settings unless it had some) or off (its plan settings dropped: without the mode the validator refuses them). */
export function withPlanMode(graph: AgentGraph, on: boolean): AgentGraph {
  const { mode: _mode, plan: _plan, ...rest } = graph;
  return on ? { ...rest, mode: "plan-and-execute", plan: graph.plan ?? planSettingsSchema.parse({}) } : rest;
}

/** The plan with its approval on or off; a plan that waits for nobody is reminded to nobody, so its reminders go with the approval (undo brings them back). */
export function withPlanApproval(plan: PlanSettings, approval: boolean): PlanSettings {
  if (approval) return { ...plan, approval };
  const { approvalReminders: _dropped, ...rest } = plan;
  return { ...rest, approval };
}

/** The plan with its approval's reminders, without the key once every field is off. */
export function withPlanReminders(plan: PlanSettings, reminders: ApprovalReminders): PlanSettings {
  const kept = remindersOrNone(reminders);
  if (kept) return { ...plan, approvalReminders: kept };
  const { approvalReminders: _dropped, ...rest } = plan;
  return rest;
}

/** The mode toggle and, when on, the plan's limits, synthesis agent and approval. */
export function PlanSettingsGroup({ graph, issues, readOnly, edit }: { graph: AgentGraph; issues: Issues; readOnly: boolean; edit: Edit }) {
  const on = graph.mode === "plan-and-execute";
  const plan = graph.plan ?? planSettingsSchema.parse({});
  const setPlan = (next: Partial<PlanSettings>, key: string) => edit((g) => ({ ...g, plan: { ...(g.plan ?? planSettingsSchema.parse({})), ...next } }), `plan:${key}`);
  const setMode = (planMode: boolean) => edit((g) => withPlanMode(g, planMode), "plan:mode");
  const editPlan = (change: (plan: PlanSettings) => PlanSettings, key: string) => edit((g) => ({ ...g, plan: change(g.plan ?? planSettingsSchema.parse({})) }), `plan:${key}`);
  const cards = graph.agents.filter((a) => a.name !== graph.entryAgent).map((a) => a.name);
  const synthesis = plan.synthesisAgent;
  return (
    <div className="space-y-2" role="group" aria-label="Plan and execute">
      <h3 className="text-xs font-semibold text-zinc-800">Plan and execute</h3>
      <label className="flex items-center gap-2 text-sm text-zinc-800">
        <input type="checkbox" checked={on} disabled={readOnly} onChange={(e) => setMode(e.target.checked)} />
        Plan and execute
      </label>
      <FieldIssues issues={issues} path="mode" />
      <p className="text-[11px] text-zinc-500">
        {on ? `${graph.entryAgent} (the entry agent) plans the task as a graph of steps; the other agents are its cards, and steps that do not depend on each other run in parallel.` : "The entry agent plans the task as a graph of steps for the other agents (its cards); independent steps run in parallel."}
      </p>
      <FieldIssues issues={issues} path="plan" />
      {on ? (
        <div className="grid grid-cols-2 gap-2">
          {NUMBER_FIELDS.map(({ key, label }) => (
            <Field key={key} id={`plan-${key}`} label={label} path={`plan.${key}`} issues={issues}>
              <NumberInput id={`plan-${key}`} value={plan[key]} disabled={readOnly} onChange={(v) => setPlan({ [key]: v }, key)} />
            </Field>
          ))}
          <Field id="plan-synthesisAgent" label="Synthesis agent" path="plan.synthesisAgent" issues={issues}>
            <select
              id="plan-synthesisAgent"
              className={INPUT}
              value={synthesis ?? ""}
              disabled={readOnly}
              onChange={(e) => setPlan({ synthesisAgent: e.target.value === "" ? undefined : e.target.value }, "synthesisAgent")}
            >
              <option value="">none (the answer lists the final steps&apos; results)</option>
              {cards.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
              {synthesis !== undefined && !cards.includes(synthesis) ? <option value={synthesis}>{synthesis} (not one of the cards)</option> : null}
            </select>
          </Field>
          <label className="col-span-2 flex items-center gap-2 text-sm text-zinc-800">
            <input type="checkbox" checked={plan.approval} disabled={readOnly} onChange={(e) => editPlan((p) => withPlanApproval(p, e.target.checked), "approval")} />
            An approver approves the plan before it runs
          </label>
          <div className="col-span-2">
            <FieldIssues issues={issues} path="plan.approval" />
            {plan.approval ? (
              <div className="mt-1 space-y-1 rounded-md border border-zinc-200 p-2">
                <h4 className="text-xs font-medium text-zinc-800">Plan nobody decides</h4>
                <ApprovalReminderFields
                  rule={plan.approvalReminders ?? {}}
                  idPrefix="plan-approval"
                  subject="the plan approval"
                  base="plan.approvalReminders"
                  issues={issues}
                  readOnly={readOnly}
                  set={(next, field) => editPlan((p) => withPlanReminders(p, next), `approvalReminders:${field}`)}
                />
              </div>
            ) : (
              <FieldIssues issues={issues} path="plan.approvalReminders" />
            )}
          </div>
        </div>
      ) : null}
    </div>
  );
}
