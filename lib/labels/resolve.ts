// A run started by label: the label is resolved once, at the start, to the
// version the run executes (its split's version for the split's share, drawn
// deterministically from the run's id or a context value), and the run's row
// records the label and the side it drew. Not server-only: the run start
// (lib/runs/launch-saved.ts) runs in the worker too, for scheduled runs, and a
// worker process is plain Node, where "server-only" throws on import.
import type { Db } from "../db/prisma";
import { AgentNotFound } from "../agents/errors";
import { splitFromRow, drawKey, drawVariant, type Variant } from "./split";
import { LabelNotFound } from "./errors";

export interface LabelResolution {
  label: string;
  version: number;
  variant: Variant;
  /** What the draw was made from: a context value, or the run's own key (no split, or the context lacked the key). */
  drawnFrom: "context" | "run" | null;
}

/**
 * The version a run started by `label` executes. `runKey` is the run's own draw key (the random part of
 * its id): a conversation-sticky split draws with it, and a context-sticky split does when the context
 * lacks the key.
 */
export async function resolveLabel(db: Db, graph: string, label: string, context: Record<string, unknown>, runKey: string): Promise<LabelResolution> {
  const agent = await db.agent.findUnique({ where: { name: graph }, select: { id: true } });
  if (!agent) throw new AgentNotFound(graph);
  const agentId = agent.id;
  const row = await db.agentLabel.findUnique({ where: { agentId_name: { agentId, name: label } } });
  if (!row) throw new LabelNotFound(graph, label, (await db.agentLabel.findMany({ where: { agentId }, select: { name: true }, orderBy: { name: "asc" } })).map((l) => l.name));
  const split = splitFromRow(row);
  if (!split || split.percent <= 0) return { label, version: row.version, variant: "base", drawnFrom: null };
  const { key, from } = drawKey(split, context, runKey);
  const variant = drawVariant(graph, label, split, key);
  return { label, version: variant === "split" ? split.version : row.version, variant, drawnFrom: from };
}
