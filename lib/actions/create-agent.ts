"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { createAgentOperation } from "../agents/server/operations";

/** Builders create an agent graph, blank or from a demo template, as version 1. */
export const createAgentAction = operationAction(createAgentOperation, () => revalidatePath("/agents"));
