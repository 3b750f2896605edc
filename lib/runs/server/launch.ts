import "server-only";
// Launching runs: the versions a dialog offers and the one step that checks the
// input, starts the run and audits it, whichever door it came through (the
// dialog's action or POST /api/runs). The engine client records the run row and
// starts the workflow, removing the row if Temporal refuses.
import { getDb } from "../../db/server/db";
import { getEngine } from "../../engine/server/engine";
import { agentGraphSchema } from "../../agents/schemas";
import { NOT_DRAFT } from "../../agents/repository";
import { AgentNotFound } from "../../agents/errors";
import type { SessionUser } from "../../auth/server/session";
import { placeholdersOf } from "../placeholders";
import { examplesFor, type ExampleTask } from "../examples";
import type { launchRunSchema } from "../schemas";
import { launchSavedRun } from "../launch-saved";
import type { z } from "zod";
import { getConfig } from "../../config/server/config";
import { catalogOptions, supportsVision } from "../../models/catalog";

export interface LaunchVersion {
  version: number;
  createdAt: string;
  note: string;
  /** Placeholders the version's prompts use (`context.customer.name`). */
  placeholders: string[];
  /** The entry agent's model, shown as the default of the override. */
  model: string;
  /** Whether that model reads images (the model catalogue): the dialog warns before sending images to one that does not. */
  vision: boolean;
  /** A draft: runs only when chosen by its number, never as the default. */
  draft: boolean;
}

export interface LaunchOptions {
  /** The saved agent graph. */
  graph: string;
  versions: LaunchVersion[];
  /** The version a run without a number takes: the newest that is not a draft. */
  defaultVersion: number | null;
  examples: readonly ExampleTask[];
  /** The graph's version labels (lib/labels): a run may be started by one. */
  labels: { name: string; version: number; splitVersion: number | null; splitPercent: number }[];
}

/** The newest 50 versions of a saved agent graph with their placeholders (drafts marked), its default version, and example tasks. */
export async function launchOptions(graphName: string): Promise<LaunchOptions> {
  const [rows, current, labels] = await Promise.all([
    getDb().agentVersion.findMany({ where: { agent: { name: graphName } }, orderBy: { version: "desc" }, take: 50 }),
    getDb().agentVersion.findFirst({ where: { agent: { name: graphName }, ...NOT_DRAFT }, orderBy: { version: "desc" }, select: { version: true } }),
    getDb().agentLabel.findMany({ where: { agent: { name: graphName } }, orderBy: { name: "asc" }, select: { name: true, version: true, splitVersion: true, splitPercent: true } }),
  ]);
  if (!rows.length) throw new AgentNotFound(graphName);
  const catalog = catalogOptions(getConfig());
  const versions = rows.map((row) => {
    const graph = agentGraphSchema.safeParse(JSON.parse(row.graph));
    const agents = graph.success ? graph.data.agents : [];
    const entry = graph.success ? agents.find((a) => a.name === graph.data.entryAgent) : undefined;
    const model = entry?.model ?? "";
    return { version: row.version, createdAt: row.createdAt.toISOString(), note: row.note, placeholders: placeholdersOf(agents.map((a) => a.systemPrompt)), model, vision: supportsVision(model, catalog), draft: row.draft };
  });
  return { graph: graphName, versions, defaultVersion: current?.version ?? null, examples: examplesFor(graphName), labels };
}

/** Saved agents, for the launcher on the runs page. */
export async function launchableAgents(): Promise<string[]> {
  const rows = await getDb().agent.findMany({ where: { archivedAt: null }, orderBy: { name: "asc" }, select: { name: true } });
  return rows.map((r) => r.name);
}

/** Starts a run of a saved version as the signed-in user (lib/runs/launch-saved.ts: the same start a schedule's firing makes). */
export function launchRun(input: z.output<typeof launchRunSchema>, user: SessionUser): Promise<{ runId: string }> {
  return launchSavedRun({ db: getDb(), engine: getEngine() }, input, { id: user.id, email: user.email });
}
