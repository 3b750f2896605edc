// The experiment's activities (worker/workflows/experiment.ts). One unit = one
// dataset item on one target: start the item's taped run (idempotent: a stable
// workflow id, and the run id kept on the result row), wait for it while
// heartbeating, observe it from the ledger, score it and write the scores once
// (a conditional update: a retried or replayed unit never scores twice).
//
// Why a heartbeating activity and not a child workflow: the item run is a
// normal run started through the engine's one start path (run row, approval
// gate, signed input, tape), which is client-side code; and a finished run stays
// open for follow-ups, so a child's result would arrive only after its
// follow-up window. The activity watches the run's ledger status instead, and a
// killed worker's unit is retried elsewhere after one heartbeat timeout.
import { ApplicationFailure, CancelledFailure, Context } from "@temporalio/activity";
import type { Db } from "../../lib/db/prisma";
import type { PriceBook } from "../../lib/pricing/price-book";
import { cachedPriceBook } from "../../lib/pricing/server/read-price-book";
import { readRunRow, runExists } from "../../lib/run-ledger/read";
import { createEngine, type Engine } from "../../lib/engine/client";
import { createTape } from "../../lib/tapes/server/tape-store";
import { observeRun } from "../../lib/experiments/server/observe-run";
import { readExperimentItem } from "../../lib/experiments/server/dataset-source";
import { itemTape, parseExperimentSettings } from "../../lib/experiments/server/settings";
import { scoreRun } from "../../lib/experiments/scoring/score-run";
import { createModelJudge } from "../../lib/experiments/scoring/judge";
import type { ScorerConfig, JudgeFn } from "../../lib/experiments/scoring/types";
import type { ExperimentTarget } from "../../lib/experiments/schemas";
import { experimentRunId, type ExperimentUnitRef } from "../../lib/experiments/workflow-contract";
import type { DatasetItem } from "../../lib/datasets/schemas";
import type { TapeEntry, TapeSettings } from "../../lib/tapes/schemas";
import type { ModelRegistry } from "../models/registry";

const FINAL_RUN_STATUSES = new Set(["completed", "failed", "cancelled"]);
const POLL_MS = 400;

/** What starting one item run needs; the worker's default goes through the engine's start with a tape. */
export interface ItemRunStart {
  experimentId: string;
  targetIndex: number;
  target: ExperimentTarget;
  item: DatasetItem;
  tape: { entries: TapeEntry[]; settings: TapeSettings };
  startedBy: { id: string; email: string } | null;
}

export interface ExperimentActivityDeps {
  db: Db;
  /** Starts an item's run, or finds the one an earlier attempt of the unit started. */
  startItemRun: (start: ItemRunStart) => Promise<{ runId: string }>;
  /** Cancels an item run (a cancelled experiment leaves no run going). */
  cancelItemRun: (runId: string) => Promise<void>;
  judge: JudgeFn;
  /** Default: the price book (lib/pricing), read through the activity's client. */
  prices?: PriceBook;
}

function refused(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: "ExperimentUnitRefused", message, nonRetryable: true });
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Resolves when the run's ledger status is final; heartbeats meanwhile, and a cancelled unit cancels the run. */
async function waitForRun(deps: ExperimentActivityDeps, runId: string): Promise<void> {
  const context = Context.current();
  for (;;) {
    const run = await readRunRow(deps.db, runId);
    if (run && FINAL_RUN_STATUSES.has(run.status)) return;
    context.heartbeat({ runId });
    try {
      await context.sleep(POLL_MS);
    } catch (error) {
      // Only the experiment's cancel stops the run: a heartbeat timeout (a slow or dead worker) or a worker
      // shutdown also cancels this attempt, and the retry must find the run still going.
      if (error instanceof CancelledFailure && context.cancellationDetails?.cancelRequested && !context.cancellationDetails.timedOut) await deps.cancelItemRun(runId).catch(() => undefined);
      throw error;
    }
  }
}

export function createExperimentActivities(deps: ExperimentActivityDeps) {
  const { db } = deps;
  return {
    /** Runs one unit to its scores (idempotent: a unit already scored or failed is left as it is). */
    async runExperimentUnit({ experimentId, seq }: ExperimentUnitRef): Promise<"scored" | "skipped"> {
      const experiment = await db.experiment.findUnique({ where: { id: experimentId } });
      if (!experiment) throw refused(`There is no experiment ${experimentId}`);
      const unit = await db.experimentResult.findUnique({ where: { experimentId_seq: { experimentId, seq } } });
      if (!unit) throw refused(`Experiment ${experimentId} has no unit ${seq}`);
      if (unit.status === "scored" || unit.status === "failed") return "skipped";
      const target = parseJson<ExperimentTarget[]>(experiment.targets, [])[unit.targetIndex];
      if (!target) throw refused(`Experiment ${experimentId} has no target ${unit.targetIndex}`);
      const item = await readExperimentItem(db, experiment.datasetId, experiment.datasetVersion, unit.itemId);
      if (!item) throw refused(`Dataset ${experiment.datasetName} version ${experiment.datasetVersion} has no item ${unit.itemId}`);

      let runId = unit.runId;
      if (!runId) {
        const started = await deps.startItemRun({
          experimentId,
          targetIndex: unit.targetIndex,
          target,
          item,
          tape: itemTape(item.tape, parseExperimentSettings(experiment.settings)),
          startedBy: experiment.createdById ? { id: experiment.createdById, email: experiment.createdBy ?? "" } : null,
        });
        runId = started.runId;
        await db.experimentResult.updateMany({ where: { id: unit.id, runId: null }, data: { runId, status: "running" } });
      }
      await waitForRun(deps, runId);

      const observed = await observeRun(db, runId, deps.prices ?? (await cachedPriceBook(db)));
      const scores = await scoreRun(observed, item, parseJson<ScorerConfig[]>(experiment.scorers, []), { judge: deps.judge });
      // Written once: a unit that a crashed attempt already scored keeps its first scores.
      await db.experimentResult.updateMany({
        where: { id: unit.id, status: { notIn: ["scored", "failed"] } },
        data: {
          status: "scored",
          scores: JSON.stringify(scores),
          latencyMs: Math.round(observed.latencyMs),
          inputTokens: observed.inputTokens,
          outputTokens: observed.outputTokens,
          costUsd: observed.costUsd,
        },
      });
      return "scored";
    },

    /** Records a unit whose activity gave up (its run could not be started or observed), with the reason. */
    async failExperimentUnit({ experimentId, seq, reason }: ExperimentUnitRef & { reason: string }): Promise<void> {
      await db.experimentResult.updateMany({ where: { experimentId, seq, status: { notIn: ["scored", "failed"] } }, data: { status: "failed", error: reason.slice(0, 1_000) } });
    },

    /**
     * Marks the experiment completed or cancelled (a cancel recorded by the web server stays cancelled). A
     * cancelled experiment also cancels the runs of units still marked running (one whose attempt had timed
     * out when the cancel came, so it could not cancel its run itself).
     */
    async finishExperiment({ experimentId, status }: { experimentId: string; status: "completed" | "cancelled" }): Promise<void> {
      await db.experiment.updateMany({ where: { id: experimentId, status: "running" }, data: { status, finishedAt: new Date() } });
      if (status !== "cancelled") return;
      const running = await db.experimentResult.findMany({ where: { experimentId, status: "running", runId: { not: null } }, select: { runId: true } });
      for (const { runId } of running) {
        const run = runId ? await readRunRow(db, runId) : null;
        if (run && !FINAL_RUN_STATUSES.has(run.status)) await deps.cancelItemRun(run.id).catch(() => undefined);
      }
    },
  };
}

/** The entry agent of a saved version (it starts the run id), or null when the version is gone. */
async function entryAgentOf(db: Db, graphName: string, version: number): Promise<string | null> {
  const row = await db.agentVersion.findFirst({ where: { agent: { name: graphName }, version }, select: { graph: true } });
  if (!row) return null;
  const graph = JSON.parse(row.graph) as { entryAgent?: unknown };
  return typeof graph.entryAgent === "string" ? graph.entryAgent : null;
}

/**
 * The worker's item runs: started through the engine's one start path (run
 * row with its experiment, approval gate, signed input) with the item's tape,
 * by the activity's own Temporal client, under a run id derived from the unit.
 */
export function engineItemRuns({ db, decisionKey }: { db: Db; decisionKey: Buffer | null }): Pick<ExperimentActivityDeps, "startItemRun" | "cancelItemRun"> {
  const engines = new Map<string, Engine>();
  const engine = (): Engine => {
    const { client, info } = Context.current();
    let found = engines.get(info.taskQueue);
    if (!found) {
      found = createEngine({ temporal: client, db, taskQueue: info.taskQueue, decisionKey });
      engines.set(info.taskQueue, found);
    }
    return found;
  };
  return {
    async startItemRun({ experimentId, targetIndex, target, item, tape, startedBy }) {
      const entryAgent = await entryAgentOf(db, target.graphName, target.version);
      if (!entryAgent) throw refused(`${target.graphName} version ${target.version} no longer exists`);
      const runId = experimentRunId(entryAgent, experimentId, targetIndex, item.id);
      // An earlier attempt started it (and died before recording it): the same run, not a second one.
      if (await runExists(db, runId)) return { runId };
      const { tapeId } = await createTape(db, { purpose: "experiment", entries: tape.entries, settings: tape.settings });
      return engine().startRun({
        graphName: target.graphName,
        version: target.version,
        ...(target.model ? { modelOverride: target.model } : {}),
        task: item.input.task,
        context: item.input.context,
        ...(item.input.images?.length ? { images: item.input.images.map((ref) => ({ attachmentId: ref.attachmentId })) } : {}),
        startedBy,
        tape: { tapeId },
        origin: { experimentId },
        runId,
      });
    },
    async cancelItemRun(runId) {
      await engine().cancelRun(runId);
    },
  };
}

/** How often a unit heartbeats while its judge thinks: well inside the unit's 10-second heartbeat timeout. */
const JUDGE_HEARTBEAT_MS = 2_000;

/**
 * The judge scorer's model calls, through the worker's model registry (default demo/judge, offline), each
 * bounded by createModelJudge's timeout. The unit heartbeats meanwhile, so a slow judge is not mistaken for a
 * dead worker, and the unit's cancel aborts the call.
 */
export function registryJudge(models: ModelRegistry): JudgeFn {
  return createModelJudge(async ({ model, system, prompt, signal }) => {
    const { provider, modelName } = models.resolve(model);
    const context = Context.current();
    const beat = setInterval(() => context.heartbeat(), JUDGE_HEARTBEAT_MS);
    try {
      const response = await provider.generate(
        {
          model,
          agentName: "judge",
          messages: [{ role: "system", content: system }, { role: "user", content: prompt }],
          tools: [],
          temperature: 0,
          maxOutputTokens: 512,
          attempt: 1,
          signal: AbortSignal.any([signal, context.cancellationSignal]),
        },
        modelName,
      );
      return response.content;
    } finally {
      clearInterval(beat);
    }
  });
}
