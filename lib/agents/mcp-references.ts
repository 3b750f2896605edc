// Graphs name registered MCP servers; a name that is not registered, an
// allow-list wider than the registry's, or a guardrail check the registry does
// not offer, is refused where graphs are saved and where runs start (both need
// the database, so the pure validator cannot).
import type { Db } from "../db/prisma";
import type { AgentGraph } from "./schemas";
import { ValidationError, type FieldIssue } from "../errors";
import { mcpCheckOf } from "../guardrails/custom-checks";

/** Every reference in `graph` to a server that is not registered, to a tool the registry does not allow, or to a tool it does not offer as a guardrail check. */
export async function referencedServerProblems(db: Db, graph: AgentGraph): Promise<FieldIssue[]> {
  const checks = graph.agents.flatMap((agent, i) =>
    agent.guardrails.flatMap((guardrail, g) => {
      const named = guardrail.check.type === "custom" ? mcpCheckOf(guardrail.check.check) : null;
      return named ? [{ ...named, path: `agents[${i}].guardrails[${g}].check.check` }] : [];
    }),
  );
  const names = [...new Set([...graph.agents.flatMap((a) => a.mcpServers.map((s) => s.name)), ...checks.map((c) => c.server)])];
  if (names.length === 0) return [];
  const rows = await db.mcpServer.findMany({ where: { name: { in: names } }, select: { name: true, allowTools: true, guardrailTools: true } });
  const registered = new Map(rows.map((r) => [r.name, { allowTools: JSON.parse(r.allowTools) as string[], guardrailTools: JSON.parse(r.guardrailTools) as string[] }]));
  const problems: FieldIssue[] = [];
  graph.agents.forEach((agent, i) => {
    agent.mcpServers.forEach((server, s) => {
      const allowed = registered.get(server.name)?.allowTools;
      if (allowed === undefined) {
        problems.push({ path: `agents[${i}].mcpServers[${s}].name`, message: `no MCP server named "${server.name}" is registered; an admin registers servers in Admin › MCP servers` });
        return;
      }
      // An empty registry list allows every tool; otherwise a graph may only narrow it.
      (server.allowTools ?? []).forEach((tool, t) => {
        if (allowed.length > 0 && !allowed.includes(tool)) {
          problems.push({ path: `agents[${i}].mcpServers[${s}].allowTools[${t}]`, message: `the registered server "${server.name}" does not allow the tool "${tool}"` });
        }
      });
    });
  });
  problems.push(...offeredCheckProblems(checks, registered));
  return problems;
}

/** An MCP-backed guardrail check ("<server>__<tool>") and where it is written. */
export interface McpCheckReference {
  server: string;
  tool: string;
  path: string;
}

/**
 * Each check whose tool the registry does not offer as a guardrail check. A check calls its tool with the text
 * checked: only a tool the admin offered as a check may be one, never one a model may merely call (create_ticket).
 */
function offeredCheckProblems(checks: readonly McpCheckReference[], registered: ReadonlyMap<string, { guardrailTools: string[] }>): FieldIssue[] {
  return checks.flatMap((check) => {
    const offered = registered.get(check.server)?.guardrailTools;
    if (offered === undefined) return [{ path: check.path, message: `no MCP server named "${check.server}" is registered; an admin registers servers in Admin › MCP servers` }];
    if (offered.includes(check.tool)) return [];
    return [{ path: check.path, message: `the MCP server "${check.server}" does not offer "${check.tool}" as a guardrail check (offered: ${offered.join(", ") || "none"}); an admin offers checks in Admin › MCP servers` }];
  });
}

/** The problems of MCP-backed guardrail checks named outside a graph (an online evaluator's checks). */
export async function mcpCheckProblems(db: Db, checks: readonly McpCheckReference[]): Promise<FieldIssue[]> {
  if (checks.length === 0) return [];
  const rows = await db.mcpServer.findMany({ where: { name: { in: [...new Set(checks.map((c) => c.server))] } }, select: { name: true, guardrailTools: true } });
  return offeredCheckProblems(checks, new Map(rows.map((r) => [r.name, { guardrailTools: JSON.parse(r.guardrailTools) as string[] }])));
}

/** Throws a 422 naming every unregistered server reference. */
export async function requireRegisteredServers(db: Db, graph: AgentGraph): Promise<void> {
  const problems = await referencedServerProblems(db, graph);
  if (problems.length > 0) throw new ValidationError(problems, "The agent graph references MCP servers that are not registered");
}
