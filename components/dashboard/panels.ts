// What the dashboard shows, section by section: each chart's series, how it is
// drawn and what would fill it while empty. The layout reads this list, so a
// new series is one line here.
import type { MetricSeriesName } from "@/lib/metrics/schemas";

export interface PanelDef {
  name: MetricSeriesName;
  style: "bars" | "lines";
  empty: string;
}

export interface SectionDef {
  title: string;
  description: string;
  panels: PanelDef[];
}

/** Series that carry a label of their own; without a chosen split they are drawn by it (failures by reason…). */
export const LABELLED_SERIES = ["started_failed", "tool_latency", "approvals_requested", "approvals_decided", "routing_decisions", "routing_fallbacks", "plan_outcomes", "budget_asks"] as const satisfies readonly MetricSeriesName[];

export const SECTIONS: SectionDef[] = [
  {
    title: "Runs",
    description:
      "Top-level runs by the interval they started in, each counted once where it is now (a run that answered and was then cancelled is cancelled), as the runs list shows them; runs started by experiments included. A bar opens exactly its runs.",
    panels: [
      { name: "runs_by_state", style: "bars", empty: "Runs started in this range appear here: start one from Runs or an agent's designer." },
      { name: "started_failed", style: "bars", empty: "No run started in this range has failed. A failed run shows here by its reason (model error, budget exceeded…)." },
      { name: "success_rate", style: "lines", empty: "The share of the runs started here that completed, of those that have ended, once one ends." },
    ],
  },
  {
    title: "Latency",
    description: "p50, p95 and p99 of each interval (p95 per line when split); beside the title the p95 over the range, in the legend each line's percentile over the range.",
    panels: [
      { name: "run_latency", style: "lines", empty: "How long runs take, from start to end, once runs end in this range." },
      { name: "model_latency", style: "lines", empty: "Model call durations appear once a run calls a model." },
      { name: "tool_latency", style: "lines", empty: "Tool call durations appear once an agent calls a tool (e.g. support-triage's lookup_order)." },
    ],
  },
  {
    title: "Tokens and cost",
    description: "Summed per interval; cost at the configured prices (models without a price add tokens, not cost).",
    panels: [
      { name: "tokens_in", style: "bars", empty: "Input tokens appear once a run calls a model." },
      { name: "tokens_out", style: "bars", empty: "Output tokens appear once a run calls a model." },
      { name: "cost", style: "bars", empty: "Cost appears once a model with a price answers (the demo model is free)." },
    ],
  },
  {
    title: "Approvals",
    description: "Requests by kind, decisions by outcome and how long a decision took.",
    panels: [
      { name: "approvals_requested", style: "bars", empty: "Approval requests appear when a tool call, a plan or a budget needs a decision (e.g. treasury's transfers)." },
      { name: "approvals_decided", style: "bars", empty: "Approved, rejected and expired requests appear once someone decides in the inbox." },
      { name: "approval_wait", style: "lines", empty: "Time to decide appears once a request is decided." },
    ],
  },
  {
    title: "Orchestration health",
    description: "Routers, typed answers, plans and budgets: where the modes fall back, repair or fail.",
    panels: [
      { name: "routing_decisions", style: "bars", empty: "A router's decisions by target appear once a routed graph runs (e.g. help-desk)." },
      { name: "routing_fallback_rate", style: "lines", empty: "The share of routing decisions that went to the fallback agent." },
      { name: "routing_exhausted", style: "bars", empty: "Runs whose router ran out of targets (routing_exhausted) show here." },
      { name: "answers_repaired", style: "bars", empty: "Typed answers the model had to repair appear here (e.g. invoice-triage)." },
      { name: "validation_errors", style: "bars", empty: "Runs that ended with validation_error (a typed answer never valid) show here." },
      { name: "plan_outcomes", style: "bars", empty: "Plan outcomes (completed, partially failed, failed) appear once a plan-and-execute run ends (e.g. trip-planner)." },
      { name: "plan_node_failures", style: "bars", empty: "Failed plan nodes appear here." },
      { name: "budget_asks", style: "bars", empty: "Budget requests, granted or refused, appear when a run with onBudget “ask” reaches its budget." },
      { name: "guardrail_trips", style: "bars", empty: "Guardrails that tripped, by guardrail, appear once an agent with guardrails runs." },
    ],
  },
];
