"use client";
// The state of a plan being edited: the plan, the JSON draft when the JSON
// view is being typed in, and what follows from them — the live check and
// the diff from the proposed plan. The graph and the JSON view edit the same
// plan: a graph edit rewrites the JSON, JSON that parses redraws the graph.
import { useCallback, useMemo, useState } from "react";
import type { Plan } from "@/lib/contract/plan";
import { planShapeProblems, type PlanLimits } from "@/lib/contract/plan-approval";
import { diffPlans, type PlanDiff } from "@/lib/plans/diff";
import { checkEditedPlan, type PlanCheck } from "@/lib/plans/edit";

export interface PlanEditState {
  plan: Plan;
  check: PlanCheck;
  diff: PlanDiff;
  /** The JSON view's text: the plan's own unless the approver is typing. */
  jsonText: string;
  /** Why the typed JSON is not a plan yet (null when it is): the graph shows the last plan that was. */
  jsonProblem: string | null;
  /** Every problem that stops the approval, as the workflow words them. */
  problems: string[];
  edit: (change: (plan: Plan) => Plan) => void;
  typeJson: (text: string) => void;
}

export const planJson = (plan: Plan): string => JSON.stringify(plan, null, 2);

export function usePlanEdit(proposed: Plan, limits: PlanLimits | null): PlanEditState {
  const [plan, setPlan] = useState(proposed);
  const [draft, setDraft] = useState<{ text: string; problem: string | null } | null>(null);
  const check = useMemo(() => checkEditedPlan(plan, limits), [plan, limits]);
  const diff = useMemo(() => diffPlans(proposed, plan), [proposed, plan]);
  const edit = useCallback((change: (plan: Plan) => Plan) => {
    setPlan(change);
    setDraft(null);
  }, []);
  const typeJson = useCallback((text: string) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      setDraft({ text, problem: "the plan is not valid JSON" });
      return;
    }
    const shape = planShapeProblems(value);
    if (shape.length) {
      setDraft({ text, problem: shape.join("; ") });
      return;
    }
    setDraft({ text, problem: null });
    setPlan(value as Plan);
  }, []);
  const jsonProblem = draft?.problem ?? null;
  return { plan, check, diff, jsonText: draft?.text ?? planJson(plan), jsonProblem, problems: jsonProblem ? [jsonProblem] : check.problems, edit, typeJson };
}
