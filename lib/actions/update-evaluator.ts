"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { updateEvaluatorOperation } from "../online-eval/server/operations";

/** Changes an online evaluator (builders and admins), enabling or disabling it too; runs already scored keep their scores. */
export const updateEvaluatorAction = operationAction(updateEvaluatorOperation, () => revalidatePath("/evaluators"));
