// Scores one observed run of one dataset item with an experiment's scorers, in
// the order they were configured. Pure apart from the judge: the engine passes
// its model-backed judge in `deps`.
import { z } from "zod";
import { customScorer, unknownCustomScorers } from "./custom";
import { scoreCost, scoreLatency, scoreTokens } from "./budget";
import { scoreJsonField, scoreJsonSchema } from "./json";
import { scoreJudge } from "./judge";
import { scorePlan, scoreRouting } from "./orchestration";
import { scoreContains, scoreExact } from "./text";
import { scoreRecorded } from "./recorded";
import { scoreTrajectory } from "./trajectory";
import { scorerConfigSchema, scorerName, type ObservedRun, type Score, type ScoreDeps, type ScoredItem, type ScorerConfig } from "./types";

export const MAX_SCORERS = 20;

/** An experiment's scorer list: 1..20 scorers, names unique (they key results and thresholds), custom names registered. */
export const scorerListSchema = z
  .array(scorerConfigSchema)
  .min(1, "give at least one scorer")
  .max(MAX_SCORERS, `at most ${MAX_SCORERS} scorers`)
  .superRefine((scorers, ctx) => {
    const seen = new Set<string>();
    scorers.forEach((config, index) => {
      const name = scorerName(config);
      if (seen.has(name)) ctx.addIssue({ code: "custom", path: [index], message: `scorer "${name}" is listed twice` });
      seen.add(name);
    });
    for (const problem of unknownCustomScorers(scorers)) ctx.addIssue({ code: "custom", message: problem });
  });

async function scoreOne(run: ObservedRun, item: ScoredItem, config: ScorerConfig, deps: ScoreDeps): Promise<Score> {
  switch (config.kind) {
    case "exact":
      return scoreExact(run, item, config);
    case "contains":
      return scoreContains(run, item, config);
    case "json_schema":
      return scoreJsonSchema(run, config.schema);
    case "json_field":
      return scoreJsonField(run, item, { path: config.path, equals: config.equals, hasEquals: "equals" in config });
    case "trajectory":
      return scoreTrajectory(run, item, config);
    case "routing":
      return scoreRouting(run, item);
    case "plan":
      return scorePlan(run, item);
    case "recorded":
      return scoreRecorded(run);
    case "latency":
      return scoreLatency(run, config.maxMs);
    case "tokens":
      return scoreTokens(run, config.max);
    case "cost":
      return scoreCost(run, config.maxUsd);
    case "judge":
      return scoreJudge(run, item, config, deps.judge);
    case "custom":
      return scoreCustom(run, item, config.name);
  }
}

/** A custom scorer's bug is its own undecided score, not a lost item: the other scores still count. */
async function scoreCustom(run: ObservedRun, item: ScoredItem, name: string): Promise<Score> {
  const scorer = `custom:${name}`;
  const fn = customScorer(name);
  if (!fn) return { scorer, value: 0, pass: null, detail: `unknown custom scorer "${name}"` };
  try {
    const result = await fn(run, item);
    if (!Number.isFinite(result.value) || result.value < 0 || result.value > 1) return { scorer, value: 0, pass: null, detail: `custom scorer returned value ${String(result.value)}, not in 0..1` };
    return { scorer, value: result.value, pass: result.pass, detail: result.detail };
  } catch (error) {
    return { scorer, value: 0, pass: null, detail: `custom scorer failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300) };
  }
}

export async function scoreRun(run: ObservedRun, item: ScoredItem, scorers: ScorerConfig[], deps: ScoreDeps): Promise<Score[]> {
  const scores: Score[] = [];
  for (const config of scorers) scores.push(await scoreOne(run, item, config, deps));
  return scores;
}
