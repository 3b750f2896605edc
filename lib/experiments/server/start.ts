// Starting an experiment, whichever door it came through: every refusal before
// anything is stored (unknown dataset or version, no items, a target version
// that fails validation, a live tool with side effects, unknown custom scorers,
// thresholds naming no scorer, a reached spend limit), then the experiment row
// with one pending result row per unit, the durable workflow, and the audit row.
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { Client } from "@temporalio/client";
import type { Db } from "../../db/prisma";
import { appendAudit } from "../../audit/write";
import type { SessionUser } from "../../auth/server/session";
import { AgentNotFound } from "../../agents/errors";
import { validateAgentGraph } from "../../agents/validate";
import { checkJsonSchema } from "../../json-schema/validator";
import { BUILTIN_TOOLS } from "../../tools/catalog";
import { ValidationError } from "../../errors";
import { unknownCustomScorers } from "../scoring/custom";
import { scorerName } from "../scoring/types";
import { DEFAULT_EXPERIMENT_CONCURRENCY, MAX_EXPERIMENT_UNITS, targetLabel, type ExperimentTarget, type startExperimentSchema } from "../schemas";
import { EXPERIMENT_WORKFLOW_TYPE, experimentWorkflowId, type ExperimentWorkflowInput } from "../workflow-contract";
import { resolveDatasetItems } from "./dataset-source";
import { checkSpendLimits } from "../../spend-limits/server/spend";
import { experimentSettingsOf, type ExperimentSettings } from "./settings";

type StartInput = z.output<typeof startExperimentSchema>;

/** Result rows written per statement (SQLite's bound-parameter limit stays far away). */
const RESULT_ROWS_PER_INSERT = 500;

/** Every target names a saved version whose graph passes validation (422 naming the version and its first problem). */
async function checkTargets(db: Db, targets: StartInput["targets"]): Promise<ExperimentTarget[]> {
  const checked: ExperimentTarget[] = [];
  for (const [index, target] of targets.entries()) {
    const row = await db.agentVersion.findFirst({ where: { agent: { name: target.graph }, version: target.version }, select: { graph: true } });
    if (!row) throw new AgentNotFound(target.graph, target.version);
    let stored: unknown;
    try {
      stored = JSON.parse(row.graph);
    } catch {
      stored = null;
    }
    const validation = validateAgentGraph(stored, { jsonSchemaProblems: checkJsonSchema });
    if (!validation.ok) {
      const first = validation.errors[0];
      const problem = first ? `${first.path}: ${first.message}` : "it is not a valid agent graph";
      throw new ValidationError([{ path: `targets[${index}]`, message: problem }], `${target.graph} version ${target.version} fails validation: ${problem}`);
    }
    checked.push({ label: targetLabel(target), graphName: target.graph, version: target.version, ...(target.model ? { model: target.model } : {}) });
  }
  return checked;
}

/** Only built-in tools without side effects may run live in an experiment; everything else comes from the tape or a stub. */
function checkLiveTools(liveTools: readonly string[]): void {
  const issues = liveTools.flatMap((tool, index) => {
    const builtin = BUILTIN_TOOLS.find((t) => t.id === tool);
    if (!builtin) return [{ path: `liveTools[${index}]`, message: `"${tool}" is not a built-in tool known to be free of side effects; give it a stub or let the tape answer` }];
    if (builtin.sideEffect) return [{ path: `liveTools[${index}]`, message: `"${tool}" has side effects and may not run live in an experiment` }];
    return [];
  });
  if (issues.length) throw new ValidationError(issues, issues.map((i) => i.message).join("; "));
}

function checkScorers(input: StartInput): void {
  const unknown = unknownCustomScorers(input.scorers);
  if (unknown.length) throw new ValidationError(unknown.map((message) => ({ path: "scorers", message })), unknown.join("; "));
  // A json_schema scorer's schema runs in the worker over every answer: refused here, at start, when it does not
  // compile or holds a pattern RE2 cannot match in linear time, rather than failing (or stalling) unit by unit.
  const schemaIssues = input.scorers.flatMap((scorer, index) =>
    scorer.kind === "json_schema" ? checkJsonSchema(scorer.schema).map((problem) => ({ path: `scorers[${index}].schema`, message: `not a valid JSON Schema: ${problem}` })) : [],
  );
  if (schemaIssues.length) throw new ValidationError(schemaIssues, schemaIssues.map((i) => `${i.path}: ${i.message}`).join("; "));
  const names = new Set(input.scorers.map(scorerName));
  const stray = Object.keys(input.thresholds ?? {}).filter((name) => !names.has(name));
  if (stray.length) {
    throw new ValidationError(
      stray.map((name) => ({ path: `thresholds.${name}`, message: `no scorer is named "${name}" (scorers: ${[...names].join(", ")})` })),
      `Thresholds name no scorer of this experiment: ${stray.join(", ")}`,
    );
  }
}

function newExperimentId(): string {
  return `exp_${randomBytes(12).toString("hex")}`;
}

export interface ExperimentStartDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
  /** Units per workflow execution before it continues as new (default: the workflow's 400). */
  unitsPerExecution?: number;
}

/**
 * Checks, stores and starts an experiment, and writes its "experiment.started"
 * audit row. Dependencies are passed in (the web server's by operations.ts,
 * benchmarks and tests their own), so no `server-only` here.
 */
export async function startExperiment({ db, temporal, taskQueue, unitsPerExecution }: ExperimentStartDeps, input: StartInput, user: Pick<SessionUser, "id" | "email">): Promise<{ experimentId: string; total: number }> {
  checkLiveTools(input.liveTools ?? []);
  checkScorers(input);
  const targets = await checkTargets(db, input.targets);
  const { dataset, items } = await resolveDatasetItems(db, input.dataset, input.datasetVersion);
  if (items.length === 0) {
    throw new ValidationError([{ path: "dataset", message: `version ${dataset.version} of "${dataset.name}" has 0 items` }], `Dataset "${dataset.name}" version ${dataset.version} has 0 items: add items before running an experiment`);
  }
  const total = items.length * targets.length;
  if (total > MAX_EXPERIMENT_UNITS) {
    throw new ValidationError([{ path: "targets", message: `${items.length} items × ${targets.length} targets = ${total} runs; at most ${MAX_EXPERIMENT_UNITS}` }]);
  }
  // Its units are runs of the targets' graphs started by this user: refused (402, naming the limit) like any run start
  // when a spend limit of the workspace, a target's graph, the user or the request's API key is reached.
  for (const graph of new Set(targets.map((t) => t.graphName))) await checkSpendLimits(db, { graph, userId: user.id });
  const settings: ExperimentSettings = experimentSettingsOf(input);
  const concurrency = input.concurrency ?? DEFAULT_EXPERIMENT_CONCURRENCY;
  const experimentId = newExperimentId();
  await db.experiment.create({
    data: {
      id: experimentId,
      name: input.name ?? `${dataset.name} v${dataset.version}: ${targets.map((t) => t.label).join(" vs ")}`.slice(0, 120),
      datasetId: dataset.id,
      datasetName: dataset.name,
      datasetVersion: dataset.version,
      targets: JSON.stringify(targets),
      scorers: JSON.stringify(input.scorers),
      thresholds: JSON.stringify(input.thresholds ?? {}),
      settings: JSON.stringify(settings),
      concurrency,
      total,
      createdById: user.id,
      createdBy: user.email,
    },
  });
  try {
    // Units go target by target within an item, so the first results to arrive compare the targets on the same items.
    const units = items.flatMap((item) => targets.map((_, targetIndex) => ({ item, targetIndex })));
    for (let offset = 0; offset < units.length; offset += RESULT_ROWS_PER_INSERT) {
      await db.experimentResult.createMany({
        data: units.slice(offset, offset + RESULT_ROWS_PER_INSERT).map(({ item, targetIndex }, i) => ({
          id: `${experimentId}-${offset + i}`,
          experimentId,
          seq: offset + i,
          itemId: item.id,
          position: item.position,
          targetIndex,
          task: item.input.task.slice(0, 500),
          tags: JSON.stringify(item.tags),
        })),
      });
    }
    const workflowInput: ExperimentWorkflowInput = { experimentId, total, concurrency, next: 0, ...(unitsPerExecution ? { unitsPerExecution } : {}) };
    await temporal.workflow.start(EXPERIMENT_WORKFLOW_TYPE, {
      workflowId: experimentWorkflowId(experimentId),
      taskQueue,
      args: [workflowInput],
    });
  } catch (error) {
    // Nothing half-created: the result rows go with the experiment (cascade).
    await db.experiment.delete({ where: { id: experimentId } }).catch(() => undefined);
    throw error;
  }
  await appendAudit(db, {
    actorId: user.id,
    action: "experiment.started",
    target: experimentId,
    details: { dataset: dataset.name, datasetVersion: dataset.version, targets: targets.map((t) => t.label), units: total, concurrency },
  });
  return { experimentId, total };
}
