"use server";
import { operationAction } from "../http/server/operation-adapters";
import { discoverMcpToolsOperation } from "../mcp/server/operations";

/** Lists a registered MCP server's tools through a worker, or says why it could not. */
export const discoverMcpToolsAction = operationAction(discoverMcpToolsOperation);
