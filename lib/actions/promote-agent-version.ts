"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { promoteVersionOperation } from "../agents/server/operations";

/** Makes a draft version the graph's default (refused when it is no draft, or a newer version is the default). */
export const promoteAgentVersionAction = operationAction(promoteVersionOperation, () => revalidatePath("/agents"));
