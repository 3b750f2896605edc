// Online evaluation's activities (issue 40 §2): claim the runs due for an
// evaluator or a backfill page (lib/online-eval/claim.ts: the row is the claim),
// then score the pending rows the way experiments do — the run observed from the
// ledger (observeRun), the experiments' scorers (scoreRun) against the
// evaluator's expectations, and guardrail checks on the task or answer (1 pass,
// 0 trip), unless today's spend reached the daily cap since the claim (then
// skipped_cap) — and write the outcome once (lib/online-eval/record.ts: only while
// the row is pending). A run whose scoring throws is recorded `failed` with the
// message; after MAX_SCORING_ATTEMPTS attempts that never finished (a worker
// killed each time) it is recorded failed too: never a lost row, never a
// second score. Low scores add the run to a dataset by the evaluator's rule,
// once (the item is looked up by run and evaluator tag before it is added), as
// the evaluator's last editor while that person may still edit datasets.
import { Context } from "@temporalio/activity";
import { can } from "../../lib/access/roles";
import type { Db } from "../../lib/db/prisma";
import { writeTransaction } from "../../lib/db/transactions";
import { claimBackfillPage, claimDueEvaluations, spentToday } from "../../lib/online-eval/claim";
import { beginAttempt, MAX_SCORING_ATTEMPTS, recordFailure, recordScores, recordSkippedForCap } from "../../lib/online-eval/record";
import { evaluatorConfigOf, type EvaluatorConfig } from "../../lib/online-eval/rows";
import { guardrailScore, guardrailTextOf, scoredItemOf } from "../../lib/online-eval/scoring";
import type { EvaluationScoreView, EvaluatorCheck } from "../../lib/online-eval/schemas";
import type { ScanCursor } from "../../lib/online-eval/temporal";
import { observeRun, ObservedRunNotFound } from "../../lib/experiments/server/observe-run";
import { scoreRun } from "../../lib/experiments/scoring/score-run";
import { createModelJudge, JudgeReplyUnreadableError, JudgeTimeoutError } from "../../lib/experiments/scoring/judge";
import { DEFAULT_JUDGE_MODEL, type JudgeFn, type ObservedRun } from "../../lib/experiments/scoring/types";
import { evaluateDeterministicCheck } from "../../lib/guardrails/checks";
import { evaluateJsonSchemaCheck } from "../../lib/guardrails/checks/json-schema";
import type { GuardrailVerdict } from "../../lib/guardrails/schemas";
import { cachedPriceBook } from "../../lib/pricing/server/read-price-book";
import { costAt, type PriceBook } from "../../lib/pricing/price-book";
import { readRootAndTask } from "../../lib/run-ledger/evaluation-reads";
import { itemFromRecordedRun } from "../../lib/datasets/server/sources";
import { applyChange } from "../../lib/datasets/server/store";
import type { ModelRegistry } from "../models/registry";
import { ModelCallError } from "../models/types";
import { AppError } from "../../lib/errors";
import { runCustomCheck, type McpCheckCaller } from "./guardrail-custom";

const HEARTBEAT_MS = 5_000;
/** Evaluations of one batch scored at once. */
const SCORE_CONCURRENCY = 4;

export interface OnlineEvalDeps {
  db: Db;
  models: ModelRegistry;
  /** Tools admins offer as guardrail checks on registered MCP servers (null: none reachable, such checks trip). */
  mcpChecks?: McpCheckCaller | null;
  /** Tests only: runs before each check is scored (a crash test kills the worker there). */
  beforeCheck?: (evaluationId: string) => Promise<void>;
}

/** A judge over the worker's models that adds each call's priced cost to `spend` (the daily cap reads it). */
function pricedJudge(models: ModelRegistry, prices: PriceBook, spend: { usd: number }, total: { usd: number }): JudgeFn {
  return createModelJudge(async ({ model, system, prompt, signal }) => {
    const { provider, modelName } = models.resolve(model);
    const response = await provider.generate(
      { model, agentName: "online-evaluator", messages: [{ role: "system", content: system }, { role: "user", content: prompt }], tools: [], temperature: 0, maxOutputTokens: 512, attempt: 1, signal },
      modelName,
    );
    const cost = costAt(prices, model, response.usage, Date.now()) ?? 0;
    spend.usd += cost;
    total.usd += cost;
    return response.content;
  });
}

async function guardrailVerdict(check: Extract<EvaluatorCheck, { source: "guardrail" }>, text: string, task: string, judge: JudgeFn, mcpChecks: McpCheckCaller | null): Promise<GuardrailVerdict> {
  const rule = check.check;
  const deterministic = evaluateDeterministicCheck(rule, text);
  if (deterministic) return deterministic;
  switch (rule.type) {
    case "json_schema":
      return evaluateJsonSchemaCheck(rule, text);
    case "custom":
      return runCustomCheck(rule.check, text, mcpChecks);
    case "judge":
      try {
        const verdict = await judge({ rubric: rule.rubric, model: rule.model ?? DEFAULT_JUDGE_MODEL, task, output: text, expected: null });
        return { tripped: verdict.score < rule.passAt, reason: `the judge scored ${verdict.score.toFixed(2)} (passes at ${rule.passAt}): ${verdict.reason}`, findings: [], score: verdict.score };
      } catch (error) {
        // Unreadable or late: the check cannot vouch for the text, so it trips (fail closed), as the run's guardrail does.
        if (error instanceof JudgeReplyUnreadableError || error instanceof JudgeTimeoutError) return { tripped: true, reason: `the judge's reply could not be read as a score (${error.message})`, findings: [] };
        throw error;
      }
    default:
      throw new Error(`check ${rule.type} has no evaluator`);
  }
}

/**
 * Every check of the evaluator on the observed run, in order, each with what its judge calls cost. `spent` sums
 * every check's judge cost as it is spent, so an attempt that fails after a judge answered still records what it
 * spent (the daily cap reads it).
 */
async function scoreChecks(deps: OnlineEvalDeps, config: EvaluatorConfig, evaluationId: string, observed: ObservedRun, task: string, prices: PriceBook, spent: { usd: number }): Promise<EvaluationScoreView[]> {
  const item = scoredItemOf(task, config.expectations);
  const scores: EvaluationScoreView[] = [];
  for (const check of config.checks) {
    await deps.beforeCheck?.(evaluationId);
    const spend = { usd: 0 };
    const judge = pricedJudge(deps.models, prices, spend, spent);
    if (check.source === "scorer") {
      const [score] = await scoreRun(observed, item, [check.scorer], { judge });
      if (score) scores.push({ ...score, costUsd: spend.usd });
    } else {
      const verdict = await guardrailVerdict(check, guardrailTextOf(check.on, observed, task), task, judge, deps.mcpChecks ?? null);
      scores.push({ ...guardrailScore(check, verdict), costUsd: spend.usd });
    }
  }
  return scores;
}

/** Adds the run to the rule's dataset when its mean is below the rule's bar, unless an earlier attempt did. */
async function applyDatasetRule(db: Db, config: EvaluatorConfig, evaluation: { runId: string; status: string; meanScore: number | null }): Promise<"added" | "none"> {
  const rule = config.datasetRule;
  if (!rule || evaluation.status !== "scored" || evaluation.meanScore === null || evaluation.meanScore >= rule.below || !config.actorId) return "none";
  // The item is added as the evaluator's last editor: only while that person still may edit datasets (as a schedule
  // starts runs as its owner only while the owner may), so a demoted or disabled builder's rule writes nothing.
  const actor = await db.user.findUnique({ where: { id: config.actorId }, select: { role: true, disabledAt: true } });
  if (!actor || actor.disabledAt || !can(actor.role, "agents:edit")) {
    console.error(`online evaluation: run ${evaluation.runId} not added to dataset ${rule.dataset}: evaluator ${config.name}'s last editor may no longer edit datasets`);
    return "none";
  }
  const dataset = await db.dataset.findUnique({ where: { name: rule.dataset }, select: { id: true, archivedAt: true } });
  if (!dataset || dataset.archivedAt) return "none";
  const tag = `online-eval:${config.name}`.slice(0, 60);
  const already = await db.datasetItemRow.findFirst({ where: { datasetId: dataset.id, AND: [{ data: { contains: `"runId":${JSON.stringify(evaluation.runId)}` } }, { data: { contains: JSON.stringify(tag) } }] }, select: { id: true } });
  if (already) return "none";
  try {
    const draft = await itemFromRecordedRun(db, evaluation.runId);
    const item = { ...draft, tags: [...new Set([...draft.tags, tag])].slice(0, 50) };
    const note = `Evaluator ${config.name} scored run ${evaluation.runId} ${evaluation.meanScore.toFixed(2)}, below ${rule.below}`;
    await applyChange({ id: config.actorId }, { datasetId: dataset.id }, { add: [item], note, action: "dataset.items_added", details: { from: "online_evaluation", evaluatorId: config.id, runIds: [evaluation.runId] } }, db);
    return "added";
  } catch (error) {
    // A run that cannot become an item (edited history, say) stays scored; the rule is best effort beside the score.
    console.error(`online evaluation: run ${evaluation.runId} not added to dataset ${rule.dataset}: ${error instanceof Error ? error.message : String(error)}`);
    return "none";
  }
}

/**
 * Why a check failed, as every reader of the run sees it (the run page, the API): the message of an error meant for
 * people (a model call refused, an application error); any other error's text — a database error's names source
 * files and queries — goes to the worker's log only.
 */
function checkErrorText(error: unknown, evaluationId: string): string {
  if (error instanceof ModelCallError || error instanceof AppError) return error.message;
  console.error(`online evaluation: evaluation ${evaluationId} failed:`, error);
  return "an unexpected error (the worker's log has the details)";
}

export type ScoreOutcome = "scored" | "failed" | "skipped_cap" | "already";

export function createOnlineEvalActivities(deps: OnlineEvalDeps) {
  const { db } = deps;

  async function scoreOne(evaluationId: string): Promise<ScoreOutcome> {
    const attempt = await beginAttempt(db, evaluationId);
    const row = await db.onlineEvaluation.findUnique({ where: { id: evaluationId }, include: { evaluator: true } });
    if (!row) return "already";
    const config = evaluatorConfigOf(row.evaluator);
    if (attempt === null) {
      await applyDatasetRule(db, config, row);
      return "already";
    }
    if (attempt > MAX_SCORING_ATTEMPTS) {
      await recordFailure(db, evaluationId, `scoring did not finish in ${MAX_SCORING_ATTEMPTS} attempts`);
      return "failed";
    }
    // The cap again, at the row's turn: what the rows scored since its claim spent counts (at most the lanes in
    // flight at once may still go past it).
    if (config.dailySpendCapUsd !== null && (await spentToday(db, config.id, new Date())) >= config.dailySpendCapUsd) return (await recordSkippedForCap(db, evaluationId)) ? "skipped_cap" : "already";
    const run = await readRootAndTask(db, row.runId);
    if (!run) return (await recordFailure(db, evaluationId, `run ${row.runId} no longer exists`)) ? "failed" : "already";
    let scores: EvaluationScoreView[];
    const spent = { usd: 0 };
    try {
      const prices = await cachedPriceBook(db);
      const observed = await observeRun(db, row.runId, prices);
      scores = await scoreChecks(deps, config, evaluationId, observed, run.task, prices, spent);
    } catch (error) {
      const message = error instanceof ObservedRunNotFound ? error.message : `a check failed: ${checkErrorText(error, evaluationId)}`;
      // What the judges of the checks before it spent counts toward the daily cap, like a scored run's.
      return (await recordFailure(db, evaluationId, message, spent.usd)) ? "failed" : "already";
    }
    if (!(await recordScores(db, row, scores))) return "already";
    const meanScore = (await db.onlineEvaluation.findUnique({ where: { id: evaluationId }, select: { meanScore: true } }))?.meanScore ?? null;
    await applyDatasetRule(db, config, { runId: row.runId, status: "scored", meanScore });
    return "scored";
  }

  return {
    /** One live pass of an evaluator: claim what is due, answer the pending rows to score and the scan's mark. */
    async claimDueEvaluations(input: { evaluatorId: string; cursor: ScanCursor | null }) {
      return claimDueEvaluations(db, input.evaluatorId, input.cursor);
    },

    /** One page of a backfill: claim its next runs, answer the pending ones (or that it is done). */
    async claimBackfillPage(input: { backfillId: string }) {
      return claimBackfillPage(db, input.backfillId);
    },

    /** Scores pending evaluations, each once; heartbeats so a killed worker's attempt is retried within seconds. */
    async scoreEvaluations(input: { ids: string[] }): Promise<Record<ScoreOutcome, number>> {
      const counts: Record<ScoreOutcome, number> = { scored: 0, failed: 0, skipped_cap: 0, already: 0 };
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_MS);
      // A few at a time: each evaluation is mostly ledger reads (and a judge's wait), and each row's write is
      // guarded on its own, so they need no order among them.
      const queue = [...input.ids];
      const lane = async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          counts[await scoreOne(id)]++;
          context.heartbeat();
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(SCORE_CONCURRENCY, queue.length) }, lane));
      } finally {
        clearInterval(beat);
      }
      return counts;
    },

    /**
     * A backfill that could not go on: recorded failed with why. Its scored claims stay; those still pending are
     * recorded failed too, since nothing else scores a backfill's rows (the live loop scores its own).
     */
    async failBackfill(input: { backfillId: string; error: string }): Promise<void> {
      const now = new Date();
      const error = input.error.slice(0, 1_000);
      await writeTransaction(db, async (tx) => {
        await tx.onlineEvaluationBackfill.updateMany({ where: { id: input.backfillId, status: "running" }, data: { status: "failed", error, finishedAt: now } });
        await tx.onlineEvaluation.updateMany({ where: { source: input.backfillId, status: "pending" }, data: { status: "failed", error: `backfill ${input.backfillId} failed before scoring this run: ${error}`.slice(0, 1_000), evaluatedAt: now } });
      });
    },
  };
}

export type OnlineEvalActivities = ReturnType<typeof createOnlineEvalActivities>;
