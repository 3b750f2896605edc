"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { deleteMcpServerOperation } from "../mcp/server/operations";

/** Removes a registered MCP server (admin). */
export const deleteMcpServerAction = operationAction(deleteMcpServerOperation, () => revalidatePath("/admin/mcp"));
