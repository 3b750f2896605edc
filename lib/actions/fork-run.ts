"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { forkRunOperation } from "../forks/server/fork-run";

/** Forks a run at a step (the span details' "Fork from here"); audited as run.forked. */
export const forkRunAction = operationAction(forkRunOperation, () => revalidatePath("/runs"));
