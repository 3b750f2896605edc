"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { deleteEvaluatorOperation } from "../online-eval/server/operations";

/** Deletes an online evaluator (builders and admins) with its evaluations and backfills. */
export const deleteEvaluatorAction = operationAction(deleteEvaluatorOperation, () => revalidatePath("/evaluators"));
