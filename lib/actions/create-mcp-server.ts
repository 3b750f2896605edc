"use server";
import { revalidatePath } from "next/cache";
import { operationAction } from "../http/server/operation-adapters";
import { createMcpServerOperation } from "../mcp/server/operations";

/** Registers an MCP server (admin); a stdio command off the allowlist is refused naming transport.command. */
export const createMcpServerAction = operationAction(createMcpServerOperation, () => revalidatePath("/admin/mcp"));
