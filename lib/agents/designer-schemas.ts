// Inputs of the designer's server actions and the shapes they return.
// Browser-safe: the pages and the actions share these.
import { z } from "zod";
import { agentNameSchema, type AgentGraph } from "./schemas";

const versionNumber = z.number().int().min(1);
const message = z.string().trim().max(500).default("");

export const createAgentInput = z.strictObject({
  name: agentNameSchema,
  description: z.string().trim().max(1000).default(""),
  /** "blank", or the name of a demo template. */
  template: z.string().min(1).max(64).default("blank"),
});

/** The graph stays `unknown` here: the validator checks it and answers with every problem's path. */
export const saveVersionInput = z.strictObject({
  name: agentNameSchema,
  baseVersion: versionNumber,
  message,
  graph: z.unknown(),
});

export const restoreVersionInput = z.strictObject({ name: agentNameSchema, version: versionNumber, baseVersion: versionNumber });
export const archiveAgentInput = z.strictObject({ name: agentNameSchema, archived: z.boolean() });
export const duplicateAgentInput = z.strictObject({ name: agentNameSchema, newName: agentNameSchema });
export const importAgentInput = z.strictObject({
  name: agentNameSchema,
  description: z.string().trim().max(1000).default(""),
  json: z.string().max(5_000_000),
});
export const versionRefInput = z.strictObject({ name: agentNameSchema, version: versionNumber });
/** Promote a draft version to the graph's default. */
export const promoteVersionInput = z.strictObject({ name: agentNameSchema, version: versionNumber });
export const agentRefInput = z.strictObject({ name: agentNameSchema });

export interface AgentSummary {
  name: string;
  description: string;
  entryAgent: string | null;
  agentCount: number;
  /** The default version: the newest that is not a draft (what a run without a version number takes). */
  latestVersion: number;
  /** The newest draft, when newer than the default (saved, not the default until promoted). */
  newestDraft: number | null;
  lastRunStatus: string | null;
  updatedBy: string | null;
  updatedAt: string;
  archived: boolean;
  /** Set when the stored graph no longer passes validation. */
  invalid: string | null;
}

export interface VersionSummary {
  version: number;
  author: string | null;
  message: string;
  createdAt: string;
  restoredFrom: number | null;
  runs: number;
  /** Saved as a draft (the playground's "Save as draft"): runnable by number, not the default until promoted. */
  draft: boolean;
  /** When the draft was promoted to the default (null: never a draft, or not promoted). */
  promotedAt: string | null;
  /** The graph's default version: the newest that is not a draft. */
  isDefault: boolean;
}

export interface StoredVersion extends VersionSummary {
  graph: AgentGraph;
}

export interface DiscoveredTool {
  name: string;
  description: string;
}

