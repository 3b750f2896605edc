import "server-only";
// "Discover tools" of a registered MCP server. The web process never starts or
// connects to an MCP server: it asks a worker, through Temporal, to do it, and
// relays the tools or one sentence safe to show. Audited either way.
import { randomUUID } from "node:crypto";
import { WorkflowFailedError, type Client } from "@temporalio/client";
import type { Db } from "../../db/prisma";
import { appendAudit } from "../../audit/write";
import { McpServerNotFound } from "../errors";
import { can } from "../../access/roles";
import { z } from "zod";
import type { McpDiscoverResult } from "../schemas";

/** The workflow type the worker registers (worker/workflows/discover-tools.ts). */
export const DISCOVER_WORKFLOW_TYPE = "discoverMcpToolsWorkflow";
const DISCOVER_TIMEOUT_MS = 20_000;

export interface DiscoverDeps {
  db: Db;
  temporal: Client;
  taskQueue: string;
}

/**
 * Lists the tools of the registered server `name` through a worker, or says why
 * it could not. Admins (who choose the allow-list) see every tool; anyone else
 * sees only the tools the admin allowed, which are all a graph may use.
 */
export async function discoverTools(deps: DiscoverDeps, name: string, actor: { id: string; role?: string } | null): Promise<McpDiscoverResult> {
  const registered = await deps.db.mcpServer.findUnique({ where: { name }, select: { id: true, allowTools: true } });
  if (!registered) throw new McpServerNotFound(name);
  let result: McpDiscoverResult;
  try {
    result = await deps.temporal.workflow.execute(DISCOVER_WORKFLOW_TYPE, {
      taskQueue: deps.taskQueue,
      workflowId: `mcp-discover-${name}-${randomUUID()}`,
      args: [{ name }],
      workflowExecutionTimeout: `${DISCOVER_TIMEOUT_MS / 1000} seconds`,
    });
  } catch (error) {
    // A timeout means no worker took the task in time; anything else stays in the log.
    if (!(error instanceof WorkflowFailedError)) throw error;
    console.error(`discover tools of MCP server "${name}" failed:`, error);
    result = { ok: false, reason: `No worker listed the tools of "${name}" within ${DISCOVER_TIMEOUT_MS / 1000} s; check that a worker is running.` };
  }
  const allowed = z.array(z.string()).parse(JSON.parse(registered.allowTools));
  if (result.ok && allowed.length > 0 && !can(actor?.role, "mcp:manage")) {
    result = { ...result, tools: result.tools.filter((tool) => allowed.includes(tool.name)) };
  }
  await appendAudit(deps.db, {
    actorId: actor?.id ?? null,
    action: "mcp_server.discovered",
    target: name,
    details: result.ok ? { ok: true, tools: result.tools.length } : { ok: false },
  });
  return result;
}
