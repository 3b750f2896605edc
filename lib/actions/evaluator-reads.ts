"use server";
// The online-evaluation reads the pages' client components ask for (an
// evaluator's backfills, a run's evaluations, the evaluators list), built from
// the same operations as the /api/evaluators and /api/runs/:runId/evaluations routes.
import { defineAction } from "../http/server/action";
import { evaluationsOfRunOperation, listBackfillsOperation, listEvaluatorsOperation } from "../online-eval/server/operations";

export const listEvaluatorsAction = defineAction({ name: listEvaluatorsOperation.name, permission: listEvaluatorsOperation.permission, input: listEvaluatorsOperation.input, handler: listEvaluatorsOperation.run });
export const listEvaluatorBackfillsAction = defineAction({ name: listBackfillsOperation.name, permission: listBackfillsOperation.permission, input: listBackfillsOperation.input, handler: listBackfillsOperation.run });
export const evaluationsOfRunAction = defineAction({ name: evaluationsOfRunOperation.name, permission: evaluationsOfRunOperation.permission, input: evaluationsOfRunOperation.input, handler: evaluationsOfRunOperation.run });
