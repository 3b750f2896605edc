"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { updateMcpServerOperation } from "../mcp/server/operations";

/** Changes a registered MCP server (admin); omitted secrets keep their values, null removes one. */
export const updateMcpServerAction = operationAction(updateMcpServerOperation, () => revalidatePath("/admin/mcp"));
