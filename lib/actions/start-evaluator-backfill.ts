"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { startBackfillOperation } from "../online-eval/server/operations";

/** Starts a backfill (builders and admins): the evaluator scores the matching runs that ended in a past range, each once. */
export const startEvaluatorBackfillAction = operationAction(startBackfillOperation, () => revalidatePath("/evaluators"));
