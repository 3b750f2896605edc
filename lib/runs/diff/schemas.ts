// The compare read's wire contract: `GET /api/runs/compare?a=&b=` (browser-safe).
import { z } from "zod";
import { runIdSchema } from "../../contract/schemas";
import type { RunStatus, TokenUsage } from "../../contract/types";
import type { DiffCounts, DiffRow } from "./align";
import type { RunStep } from "./steps";

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
  task: string;
  status: RunStatus;
  startedAt: string;
  endedAt: string | null;
  totals: RunTotals;
  /** Steps of the whole run tree in causal order (parallel stretches canonically ordered); long field texts are cut (FIELD_TEXT_CAP). */
  steps: RunStep[];
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
