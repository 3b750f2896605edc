// The compare read's wire contract: `GET /api/runs/compare?a=&b=` (browser-safe).
import { z } from "zod";
import { runIdSchema } from "../../contract/schemas";
import type { RunStatus, TokenUsage } from "../../contract/types";
import type { DiffCounts, DiffRow } from "./align";
import type { RunStep } from "./steps";

/** A step as the wire carries it: without what only the alignment uses (its parallel group, sequence number, time and normalised fields). */
export type StepView = Omit<RunStep, "group" | "seq" | "at" | "norm">;

/** `?a=<runId>&b=<runId>`, nothing else (an unknown parameter is a 422 naming it). */
export const compareQuerySchema = z.object({ a: runIdSchema, b: runIdSchema }).strict();
export type CompareQuery = z.infer<typeof compareQuerySchema>;

/** Totals of a run tree: tokens and cost of its model calls (replayed ones cost nothing), wall time of the root run. */
export interface RunTotals {
  tokens: TokenUsage;
  /** Dollars; null when some model call's model has no price. */
  cost: number | null;
  /** Root run start → end; null while it runs. */
  latencyMs: number | null;
}

export interface ComparedRun {
  runId: string;
  agentName: string;
  graphName: string | null;
  /**
   * The saved version the run executed, or (an unsaved variant: a fork with an edited prompt or model,
   * or a sub-run of one) the version it derives from; lib/runs/version-label.ts names it.
   */
  graphVersion: { version: number | null; variantOf: number | null };
  task: string;
  status: RunStatus;
  startedAt: string;
  endedAt: string | null;
  totals: RunTotals;
  /**
   * Steps of the whole run tree in causal order (parallel stretches canonically ordered), one
   * entry per step. Only the steps of the rows nearest the first divergence are sent (inlineRows
   * in window.ts); the others are null here and read with `GET /api/runs/compare/steps`. Long
   * field texts are cut (FIELD_TEXT_CAP).
   */
  steps: (StepView | null)[];
  /** The ledger state the step indices refer to; `GET /api/runs/compare/steps` answers 409 once the run has moved on. */
  version: string;
  /** How many steps were reused from a tape (a fork's replayed part). */
  replayedSteps: number;
}

export interface RunComparison {
  a: ComparedRun;
  b: ComparedRun;
  rows: DiffRow[];
  /** Index in `rows` of the first difference, or null when the runs are the same step for step. */
  firstDivergence: number | null;
  counts: DiffCounts;
  /** B − A. */
  delta: { tokens: number; cost: number | null; latencyMs: number | null };
}

/** Field texts longer than this are cut on the wire (the comparison itself used the whole text). */
export const FIELD_TEXT_CAP = 4_000;

/** The most steps one `GET /api/runs/compare/steps` answers. */
export const STEP_PAGE_MAX = 500;

/** `?run=<runId>&from=<index>&to=<index>[&version=<ComparedRun.version>]`: steps [from, to) of the run tree. */
export const compareStepsQuerySchema = z
  .object({
    run: runIdSchema,
    from: z.coerce.number().int().min(0),
    to: z.coerce.number().int().min(1),
    version: z.string().min(1).max(100).optional(),
  })
  .strict()
  .refine((q) => q.to > q.from && q.to - q.from <= STEP_PAGE_MAX, { message: `to must be after from, at most ${STEP_PAGE_MAX} steps on`, path: ["to"] });
export type CompareStepsQuery = z.infer<typeof compareStepsQuerySchema>;

/** `GET /api/runs/compare/steps`: a stretch of a run tree's steps in the order a comparison indexes them. */
export interface CompareStepsPage {
  runId: string;
  version: string;
  /** How many steps the run tree has. */
  total: number;
  from: number;
  /** Steps from `from` on (fewer than asked at the end of the run). */
  steps: StepView[];
}

/** `GET /api/runs/compare/candidates?run=<runId>`: the runs "Compare with…" offers. */
export const compareCandidatesQuerySchema = z.object({ run: runIdSchema }).strict();

export interface CompareCandidate {
  runId: string;
  status: RunStatus;
  task: string;
  startedAt: string;
  /** The run this candidate was forked from, when it is a fork. */
  forkOfRunId: string | null;
}

export interface CompareCandidates {
  graphName: string | null;
  /** The run's forks and the run it was forked from (offered first). */
  related: CompareCandidate[];
  /** The newest other top-level runs of the same graph. */
  recent: CompareCandidate[];
}
