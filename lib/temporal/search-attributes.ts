// Custom search attributes the product registers on its Temporal namespace.
// The dev server gets them at start (scripts/lib/temporal-server.ts); for a
// remote cluster, register the same list with `temporal operator search-attribute create`.

export type SearchAttributeType = "Keyword" | "Text" | "Int" | "Double" | "Bool" | "Datetime" | "KeywordList";

export interface SearchAttributeDefinition {
  name: string;
  type: SearchAttributeType;
  description: string;
}

export const SEARCH_ATTRIBUTES = [
  { name: "ZapAgentName", type: "Keyword", description: "The agent a run executes" },
  { name: "ZapRunStatus", type: "Keyword", description: "The run's current status (thinking, awaiting_approval, …)" },
  { name: "ZapPendingApprovals", type: "Int", description: "How many approvals the run is waiting on right now" },
  { name: "ZapParentRunId", type: "Keyword", description: "The run that started this sub-agent conversation" },
] as const satisfies readonly SearchAttributeDefinition[];

/** `--search-attribute Name=Type` flags for `temporal server start-dev`. */
export function devServerSearchAttributeFlags(): string[] {
  return SEARCH_ATTRIBUTES.flatMap((a) => ["--search-attribute", `${a.name}=${a.type}`]);
}
