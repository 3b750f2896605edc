// Graphs name registered MCP servers; a name that is not registered, or an
// allow-list wider than the registry's, is refused where graphs are saved and
// where runs start (both need the database, so the pure validator cannot).
import type { Db } from "../db/prisma";
import type { AgentGraph } from "./schemas";
import { ValidationError, type FieldIssue } from "../errors";

/** Every reference in `graph` to a server that is not registered, or to a tool the registry does not allow. */
export async function referencedServerProblems(db: Db, graph: AgentGraph): Promise<FieldIssue[]> {
  const names = [...new Set(graph.agents.flatMap((a) => a.mcpServers.map((s) => s.name)))];
  if (names.length === 0) return [];
  const rows = await db.mcpServer.findMany({ where: { name: { in: names } }, select: { name: true, allowTools: true } });
  const registered = new Map(rows.map((r) => [r.name, JSON.parse(r.allowTools) as string[]]));
  const problems: FieldIssue[] = [];
  graph.agents.forEach((agent, i) => {
    agent.mcpServers.forEach((server, s) => {
      const allowed = registered.get(server.name);
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
  return problems;
}

/** Throws a 422 naming every unregistered server reference. */
export async function requireRegisteredServers(db: Db, graph: AgentGraph): Promise<void> {
  const problems = await referencedServerProblems(db, graph);
  if (problems.length > 0) throw new ValidationError(problems, "The agent graph references MCP servers that are not registered");
}
