"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { createEvaluatorOperation } from "../online-eval/server/operations";

/** Creates an online evaluator (builders and admins): checks that score a graph's live runs after they end. */
export const createEvaluatorAction = operationAction(createEvaluatorOperation, () => revalidatePath("/evaluators"));
