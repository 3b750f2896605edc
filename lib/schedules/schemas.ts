// Schedules that start runs of a saved agent graph (issue 39 §1): the input of
// every door (page, HTTP API, client, CLI) and the view they answer with.
// Browser-safe: the form shows the same messages the API answers with.
import { z } from "zod";
import { agentNameSchema } from "../agents/schemas";
import { boundedJsonObject, boundedText, CONTEXT_MAX_BYTES } from "../http/limits";
import { cronProblem, timeZoneProblem } from "./cron";

/** Temporal's overlap policies, as the API names them (lib/schedules/server/temporal-sync.ts maps them). */
export const OVERLAP_POLICIES = ["skip", "buffer_one", "allow_all", "cancel_other"] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];

export const OVERLAP_LABELS: Record<OverlapPolicy, string> = {
  skip: "Skip a firing while the previous run works",
  buffer_one: "Buffer one firing until the previous run ends",
  allow_all: "Start every firing, overlapping",
  cancel_other: "Cancel the previous run, then start",
};

/** How a firing ended: its run started, then ended so; or it was refused before any run (the owner may no longer start runs). */
export const SCHEDULE_OUTCOMES = ["started", "completed", "failed", "cancelled", "refused"] as const;
export type ScheduleOutcome = (typeof SCHEDULE_OUTCOMES)[number];

export const SCHEDULE_LIMITS = {
  /** The shortest interval: a schedule is not a loop. */
  minIntervalSeconds: 5,
  maxIntervalSeconds: 366 * 86_400,
  maxJitterSeconds: 3_600,
  maxFailureLimit: 100,
  /** Schedules the workspace may keep (each one a Temporal Schedule). */
  perWorkspace: 200,
  /** Past firings one backfill may start. */
  backfillMaxRuns: 20,
  /** The longest past range a backfill covers. */
  backfillMaxDays: 31,
} as const;

export const scheduleIdSchema = z.string().regex(/^sch_[A-Za-z0-9]{8,64}$/, "expected a schedule id (sch_…)");

const nameSchema = z.string().trim().min(1, "give the schedule a name").max(100, "keep the name under 100 characters");
const cronSchema = z
  .string()
  .max(200, "a cron expression has at most 120 characters")
  .superRefine((value, ctx) => {
    const problem = cronProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const intervalSchema = z
  .number({ error: "give the interval in seconds" })
  .int("the interval is a whole number of seconds")
  .min(SCHEDULE_LIMITS.minIntervalSeconds, `the interval is at least ${SCHEDULE_LIMITS.minIntervalSeconds} seconds`)
  .max(SCHEDULE_LIMITS.maxIntervalSeconds, "the interval is at most 366 days");
const timeZoneSchema = z
  .string()
  .max(64, "a time zone name has at most 64 characters")
  .superRefine((value, ctx) => {
    const problem = timeZoneProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const jitterSchema = z.number().int("jitter is a whole number of seconds").min(0, "jitter is not negative").max(SCHEDULE_LIMITS.maxJitterSeconds, "jitter is at most 3600 seconds");
const failureLimitSchema = z
  .number()
  .int("the failure limit is a whole number")
  .min(1, "pause after at least 1 failure")
  .max(SCHEDULE_LIMITS.maxFailureLimit, `the failure limit is at most ${SCHEDULE_LIMITS.maxFailureLimit}`);
const versionSchema = z.number().int("a version is a whole number").min(1, "versions start at 1").nullable();

/** Every field a schedule keeps, each checked on its own. */
const fields = {
  name: nameSchema,
  graph: agentNameSchema,
  /** A saved version's number; null: the graph's default version when it fires. */
  version: versionSchema,
  cron: cronSchema.nullable(),
  intervalSeconds: intervalSchema.nullable(),
  timeZone: timeZoneSchema,
  jitterSeconds: jitterSchema,
  task: boundedText("task", "describe the task"),
  context: boundedJsonObject("context", CONTEXT_MAX_BYTES),
  overlap: z.enum(OVERLAP_POLICIES, { error: `the overlap policy is one of ${OVERLAP_POLICIES.join(", ")}` }),
  failureLimit: failureLimitSchema,
};

/** Exactly one of cron and interval (the issue names the field to fix). */
function oneSpec(value: { cron?: string | null; intervalSeconds?: number | null }, ctx: z.RefinementCtx): void {
  const hasCron = typeof value.cron === "string";
  const hasInterval = typeof value.intervalSeconds === "number";
  if (hasCron && hasInterval) ctx.addIssue({ code: "custom", path: ["intervalSeconds"], message: "give a cron expression or an interval, not both" });
  if (!hasCron && !hasInterval) ctx.addIssue({ code: "custom", path: ["cron"], message: "give a cron expression or an interval in seconds" });
}

/** A schedule whole: what create takes, and what an update's merged result must be. */
export const scheduleCreateSchema = z
  .strictObject({
    name: fields.name,
    graph: fields.graph,
    version: fields.version.default(null),
    cron: fields.cron.default(null),
    intervalSeconds: fields.intervalSeconds.default(null),
    timeZone: fields.timeZone.default("UTC"),
    jitterSeconds: fields.jitterSeconds.default(0),
    task: fields.task,
    context: fields.context.default({}),
    overlap: fields.overlap.default("skip"),
    failureLimit: fields.failureLimit.default(3),
  })
  .superRefine(oneSpec);
export type ScheduleCreateInput = z.input<typeof scheduleCreateSchema>;
export type ScheduleSettings = z.output<typeof scheduleCreateSchema>;

/** A change: any field; null clears cron, interval or version (the merged schedule is checked whole). */
export const schedulePatchSchema = z
  .strictObject({
    name: fields.name.optional(),
    graph: fields.graph.optional(),
    version: fields.version.optional(),
    cron: fields.cron.optional(),
    intervalSeconds: fields.intervalSeconds.optional(),
    timeZone: fields.timeZone.optional(),
    jitterSeconds: fields.jitterSeconds.optional(),
    task: fields.task.optional(),
    context: fields.context.optional(),
    overlap: fields.overlap.optional(),
    failureLimit: fields.failureLimit.optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, "change at least one field");
export type SchedulePatch = z.input<typeof schedulePatchSchema>;

export const scheduleRefInput = z.strictObject({ id: scheduleIdSchema });
/** The list, of one graph when named (a graph's Triggers tab, `?graph=`). */
export const listSchedulesInput = z.strictObject({ graph: agentNameSchema.optional() });
export const updateScheduleInput = z.strictObject({ id: scheduleIdSchema, patch: schedulePatchSchema });
export const pauseScheduleInput = z.strictObject({ id: scheduleIdSchema, note: z.string().trim().max(500, "keep the note under 500 characters").optional() });

const instant = z.iso.datetime({ offset: true, error: "an ISO 8601 time with its offset, e.g. 2026-01-31T09:00:00Z" });

/** A past range whose firings start now (at most SCHEDULE_LIMITS.backfillMaxRuns of them; checked with the schedule's spec on the server). */
export const backfillScheduleInput = z
  .strictObject({ id: scheduleIdSchema, from: instant, to: instant })
  .superRefine((value, ctx) => {
    const from = Date.parse(value.from);
    const to = Date.parse(value.to);
    if (!(to > from)) ctx.addIssue({ code: "custom", path: ["to"], message: "the range ends after it starts" });
    else if (to - from > SCHEDULE_LIMITS.backfillMaxDays * 86_400_000) ctx.addIssue({ code: "custom", path: ["from"], message: `a backfill covers at most ${SCHEDULE_LIMITS.backfillMaxDays} days` });
  });
export type BackfillInput = z.input<typeof backfillScheduleInput>;

/** A schedule as every door shows it. */
export interface ScheduleView {
  id: string;
  name: string;
  graph: string;
  version: number | null;
  cron: string | null;
  intervalSeconds: number | null;
  timeZone: string;
  jitterSeconds: number;
  task: string;
  context: Record<string, unknown>;
  overlap: OverlapPolicy;
  paused: boolean;
  pauseNote: string | null;
  failureLimit: number;
  consecutiveFailures: number;
  owner: { id: string; email: string | null };
  lastFiredAt: string | null;
  lastRunId: string | null;
  lastOutcome: ScheduleOutcome | null;
  lastError: string | null;
  /** Why Temporal does not match the row yet (the next change or worker start retries); null: in step. */
  syncError: string | null;
  /** The next firings Temporal plans (empty when paused or Temporal did not answer). */
  nextFireTimes: string[];
  createdAt: string;
  updatedAt: string;
}

/** "every 5 min" / "cron 0 9 * * 1-5 (Europe/Paris)": the spec in one phrase, for lists and alerts. */
export function describeSpec(view: Pick<ScheduleView, "cron" | "intervalSeconds" | "timeZone">): string {
  if (view.cron) return `cron ${view.cron} (${view.timeZone})`;
  const seconds = view.intervalSeconds ?? 0;
  if (seconds % 3600 === 0) return `every ${seconds / 3600} h`;
  if (seconds % 60 === 0) return `every ${seconds / 60} min`;
  return `every ${seconds} s`;
}
