// Agent graphs in the database: named agents with immutable, numbered versions.
import type { Db } from "../db/prisma";
import { writeTransaction } from "../db/transactions";
import type { AgentGraph, AgentGraphInput } from "./schemas";
import { validateAgentGraph } from "./validate";
import { InvalidConfig } from "./errors";
import { checkJsonSchema } from "../json-schema/validator";

export interface StoredAgentVersion {
  /** The version row's id (runs record it). */
  id: string;
  agentName: string;
  version: number;
  graph: AgentGraph;
  createdAt: Date;
}

/**
 * The versions a graph's default is chosen from: those that are not drafts. A
 * draft (saved from the playground) runs only when someone names its number,
 * until it is promoted; every "no version given" (the run dialog, the runs API,
 * the engine client, the designer, the experiment form) reads the default
 * through this filter. Drafts are promoted only when newer than the default, so
 * the default is always the newest version that is not a draft.
 */
export const NOT_DRAFT = { draft: false } as const;

/** The default version of a named agent graph (the newest that is not a draft), or null. */
export async function defaultAgentVersion(db: Db, name: string): Promise<StoredAgentVersion | null> {
  const row = await db.agentVersion.findFirst({ where: { agent: { name }, ...NOT_DRAFT }, orderBy: { version: "desc" }, include: { agent: true } });
  if (!row) return null;
  return { id: row.id, agentName: row.agent.name, version: row.version, graph: requireValidGraph(JSON.parse(row.graph)), createdAt: row.createdAt };
}

/** Validates a graph (output schemas with a real JSON Schema compiler), or throws InvalidConfig listing every problem with its path. */
export function requireValidGraph(input: unknown): AgentGraph {
  const validation = validateAgentGraph(input, { jsonSchemaProblems: checkJsonSchema });
  if (!validation.ok) throw new InvalidConfig(validation.errors.map((e) => ({ path: e.path, message: e.message })));
  return validation.graph;
}

/**
 * Saves a graph as the next version of `name` (creating the agent on first save).
 * Concurrent saves race for the same number; the (agent, version) unique key
 * refuses all but one, and the others re-run and take the next free number.
 */
export async function saveAgentVersion(db: Db, name: string, input: AgentGraphInput, options: { createdById?: string | null; note?: string; description?: string } = {}): Promise<StoredAgentVersion> {
  const graph = requireValidGraph(input);
  return writeTransaction(
    db,
    async (tx) => {
      // Touching the agent row locks it, so concurrent saves of one agent take turns
      // (PostgreSQL) and each reads the version the previous one wrote.
      const agent = await tx.agent.upsert({ where: { name }, create: { name, description: options.description ?? "" }, update: { updatedAt: new Date() } });
      const last = await tx.agentVersion.findFirst({ where: { agentId: agent.id }, orderBy: { version: "desc" } });
      const row = await tx.agentVersion.create({
        data: { agentId: agent.id, version: (last?.version ?? 0) + 1, graph: JSON.stringify(graph), createdById: options.createdById ?? null, note: options.note ?? "" },
      });
      return { id: row.id, agentName: name, version: row.version, graph, createdAt: row.createdAt };
    },
    // Unique violations remain possible (two first saves both insert the name), and are re-run.
    { retryOnUniqueViolation: true, isolation: "read-committed" },
  );
}
