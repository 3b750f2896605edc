// How a run started (issue 39 §1): a person (the browser, the HTTP API, the
// CLI), a schedule, an inbound webhook or an experiment, read from the links
// on its ledger row (scheduleId, webhookId, experimentId). One definition for
// every figure split by it (the overview's "How runs started"; STYLE.md §19).
// Browser-safe: the query and the answer of GET /api/runs/triggers too.
import { z } from "zod";

export const RUN_TRIGGERS = ["manual", "schedule", "webhook", "experiment"] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export const RUN_TRIGGER_LABELS: Record<RunTrigger, string> = {
  manual: "By a person (browser, API, CLI)",
  schedule: "By a schedule",
  webhook: "By a webhook",
  experiment: "By an experiment",
};

/** The links of a run's row that say what started it. */
export interface RunTriggerLinks {
  scheduleId: string | null;
  webhookId: string | null;
  experimentId: string | null;
}

/** The links in the order they decide: the first one set names the trigger; none set, a person. */
const TRIGGER_LINKS = [
  ["schedule", "scheduleId"],
  ["webhook", "webhookId"],
  ["experiment", "experimentId"],
] as const satisfies readonly (readonly [RunTrigger, keyof RunTriggerLinks])[];

/** What started a run: its schedule, else its webhook, else its experiment, else a person. */
export function runTriggerOf(run: RunTriggerLinks): RunTrigger {
  for (const [trigger, link] of TRIGGER_LINKS) if (run[link]) return trigger;
  return "manual";
}

/** A condition on the runs table's links: empty, or set. */
export type RunTriggerWhere = Partial<Record<keyof RunTriggerLinks, null | { not: null }>>;

/**
 * The runs table's condition for the runs runTriggerOf names `trigger`, read
 * from the same ordered links, so the runs list's trigger filter lists exactly
 * the runs the split counts: the links before the trigger's own empty and its
 * own set; a person's runs have none set.
 */
export function runTriggerWhere(trigger: RunTrigger): RunTriggerWhere {
  const where: RunTriggerWhere = {};
  for (const [candidate, link] of TRIGGER_LINKS) {
    if (candidate === trigger) return { ...where, [link]: { not: null } };
    where[link] = null;
  }
  return where;
}

export type RunTriggerCounts = Record<RunTrigger, number>;

/** Adds up groups of runs (their links and how many share them) by trigger; every trigger present, 0 when none. */
export function countByTrigger(groups: readonly (RunTriggerLinks & { count: number })[]): RunTriggerCounts {
  const counts = Object.fromEntries(RUN_TRIGGERS.map((trigger) => [trigger, 0])) as RunTriggerCounts;
  for (const group of groups) counts[runTriggerOf(group)] += group.count;
  return counts;
}

/** The longest start range one read counts (the dashboard's custom ranges are at most 90 days). */
export const RUN_TRIGGER_MAX_DAYS = 366;

const instant = z.iso.datetime({ offset: true, error: "an ISO 8601 time with its offset, e.g. 2026-01-31T09:00:00Z" });

/** GET /api/runs/triggers: the top-level runs started from `from` to `to` (both included), narrowed as the overview narrows its run tiles. */
export const runTriggerQuerySchema = z
  .strictObject({
    from: instant,
    to: instant,
    graph: z.string().min(1).max(100).optional(),
    version: z.coerce.number().int().min(1).optional(),
    startedBy: z.string().min(1).max(200).optional(),
  })
  .superRefine((query, ctx) => {
    const from = Date.parse(query.from);
    const to = Date.parse(query.to);
    if (!(from <= to)) ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
    else if (to - from > RUN_TRIGGER_MAX_DAYS * 86_400_000) ctx.addIssue({ code: "custom", path: ["from"], message: `the range covers at most ${RUN_TRIGGER_MAX_DAYS} days` });
  });
export type RunTriggerQuery = z.output<typeof runTriggerQuerySchema>;

/** The answer: how many of those runs each trigger started, and their total (the run tiles' "Runs started"). */
export interface RunTriggerSplit {
  from: string;
  to: string;
  counts: RunTriggerCounts;
  total: number;
}
