// Browser-safe contract of experiments: a dataset version run against one or
// more graph versions (or models), each item's tools replayed from its tape,
// stubbed, or run live only when side-effect free; scored by the scorers of
// ./scoring. One schema for every door (server action, route, TypeScript
// client, CLI). Server code lives in ./server, the durable part in worker/.
import { z } from "zod";
import { agentNameSchema, modelIdSchema } from "../agents/schemas";
import { scorerConfigSchema, scorerName, type Score, type ScorerConfig } from "./scoring/types";

export const MAX_EXPERIMENT_TARGETS = 6;
export const MAX_EXPERIMENT_CONCURRENCY = 16;
export const DEFAULT_EXPERIMENT_CONCURRENCY = 4;
/** Units (items × targets) one experiment may hold. */
export const MAX_EXPERIMENT_UNITS = 200_000;
/** Results on one page of GET /api/experiments/:id. */
export const RESULTS_PAGE_SIZE = 500;
export const MAX_RESULTS_PAGE_SIZE = 2_000;

export const EXPERIMENT_STATUSES = ["running", "completed", "cancelled", "failed"] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];
export const RESULT_STATUSES = ["pending", "running", "scored", "failed"] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

export const EXPERIMENT_ID_PATTERN = /^exp_[A-Za-z0-9]{8,40}$/;
export const experimentIdSchema = z.string().regex(EXPERIMENT_ID_PATTERN, "not an experiment id (exp_…)");

const targetSchema = z.strictObject({
  graph: agentNameSchema,
  version: z.number().int().positive(),
  model: modelIdSchema.optional(),
});

const stubSchema = z.strictObject({
  tool: z.string().min(1).max(200),
  result: z.string().max(100_000),
});

/** `POST /api/experiments`, the form's action, `client.startExperiment`. */
export const startExperimentSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120).optional(),
    /** A dataset's name or id (ds_…). */
    dataset: z.string().trim().min(1).max(200),
    /** Default: the dataset's newest version. */
    datasetVersion: z.number().int().positive().optional(),
    targets: z.array(targetSchema).min(1, "name at least one target").max(MAX_EXPERIMENT_TARGETS, `at most ${MAX_EXPERIMENT_TARGETS} targets`),
    scorers: z.array(scorerConfigSchema).min(1, "choose at least one scorer").max(20),
    /** Minimum mean value per scorer name (scorerName): the CLI exits 1 when one is missed. */
    thresholds: z.record(z.string().min(1).max(200), z.number().min(0).max(1)).optional(),
    concurrency: z.number().int().min(1).max(MAX_EXPERIMENT_CONCURRENCY).optional(),
    /** What an approval-gated call gets when its item's tape holds no decision: never the inbox. */
    approvals: z.enum(["reject", "approve"]).optional(),
    /** Results for calls the tape does not hold. */
    stubs: z.array(stubSchema).max(100).optional(),
    /** Side-effect-free built-in tools that may run for real when neither the tape nor a stub answers. */
    liveTools: z.array(z.string().min(1).max(200)).max(50).optional(),
  })
  .superRefine((input, ctx) => {
    const names = new Set<string>();
    input.scorers.forEach((config, index) => {
      const name = scorerName(config);
      if (names.has(name)) ctx.addIssue({ code: "custom", path: ["scorers", index], message: `scorer "${name}" is listed twice` });
      names.add(name);
    });
    const seen = new Set<string>();
    input.targets.forEach((target, index) => {
      const key = `${target.graph}@${target.version}/${target.model ?? ""}`;
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["targets", index], message: "this target is listed twice" });
      seen.add(key);
    });
  });
export type StartExperimentInput = z.input<typeof startExperimentSchema>;

export const experimentIdInputSchema = z.strictObject({ experimentId: experimentIdSchema });
export const getExperimentSchema = z.strictObject({
  experimentId: experimentIdSchema,
  limit: z.coerce.number().int().min(1).max(MAX_RESULTS_PAGE_SIZE).optional(),
  /** The seq of the first result of the page (nextCursor of the previous page). */
  cursor: z.coerce.number().int().min(0).optional(),
});
export const listExperimentsSchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

/** One target as stored and shown: "support-triage v3" or "support-triage v3 · demo/assistant". */
export interface ExperimentTarget {
  label: string;
  graphName: string;
  version: number;
  model?: string;
}

export interface ExperimentProgress {
  total: number;
  /** Units finished, scored or failed. */
  done: number;
  failed: number;
}

export interface ExperimentSummary {
  id: string;
  name: string;
  dataset: { id: string; name: string; version: number };
  targets: ExperimentTarget[];
  scorers: ScorerConfig[];
  thresholds: Record<string, number>;
  status: ExperimentStatus;
  progress: ExperimentProgress;
  concurrency: number;
  createdAt: string;
  createdBy: string | null;
}

export interface ExperimentResultRow {
  itemId: string;
  position: number;
  task: string;
  tags: string[];
  targetIndex: number;
  runId: string | null;
  status: ResultStatus;
  scores: Score[];
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** `GET /api/experiments/:id` (scoring-contract.md); `nextCursor` when more results follow. */
export interface ExperimentDetail {
  experiment: ExperimentSummary;
  results: ExperimentResultRow[];
  nextCursor: number | null;
}

export function targetLabel(target: { graph: string; version: number; model?: string }): string {
  return `${target.graph} v${target.version}${target.model ? ` · ${target.model}` : ""}`;
}

export function isFinalExperimentStatus(status: ExperimentStatus): boolean {
  return status !== "running";
}
