// What a draft changes compared with a saved version, in a few words a user
// reads before choosing which one to run: "1 agent added (billing), prompt of
// triage changed". Built on diffGraphs (the history panel's diff), grouped by
// agent and by what a builder calls each setting.
import type { AgentConfig, AgentGraph } from "./schemas";
import { diffGraphs } from "./graph-diff";
import { plural } from "../text/plural";

/** A setting's name as the inspector calls it. */
const SETTING_WORDS: Record<keyof AgentConfig, string> = {
  name: "name",
  description: "description",
  systemPrompt: "prompt",
  model: "model",
  temperature: "temperature",
  maxOutputTokens: "max output tokens",
  maxIterations: "max iterations",
  tools: "tools",
  mcpServers: "MCP servers",
  subAgents: "sub-agents",
  approvalRules: "approval rules",
  kind: "kind",
  router: "routing settings",
  outputSchema: "output schema",
  handoffs: "handoffs",
  handoffContext: "handoff context",
  handoffRecentMessages: "handoff messages",
};

/** More changed settings than this on one agent read as a count, not a list. */
const LISTED_SETTINGS = 3;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function names(list: readonly string[]): string {
  return list.length <= 3 ? list.join(", ") : `${list.slice(0, 3).join(", ")} and ${list.length - 3} more`;
}

function andList(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** The settings of one agent that differ, in the inspector's words and order. */
function changedSettings(before: AgentConfig, after: AgentConfig): string[] {
  const keys = Object.keys(SETTING_WORDS) as (keyof AgentConfig)[];
  return keys.filter((key) => !same(before[key], after[key])).map((key) => (key === "subAgents" && after.kind === "router" ? "children" : SETTING_WORDS[key]));
}

/**
 * The differences from `saved` to `draft`, one phrase each, most telling first:
 * agents added and removed, then each changed agent's settings, then the
 * graph's own settings. A draft that only moved nodes says so.
 */
export function summarizeGraphChanges(saved: AgentGraph, draft: AgentGraph): string[] {
  const diff = diffGraphs(saved, draft);
  const agentIds = (mark: string) => [...diff.nodes].filter(([id, m]) => m === mark && id.startsWith("agent:")).map(([id]) => id.slice("agent:".length));
  const added = agentIds("added");
  const removed = agentIds("removed");
  const phrases: string[] = [];
  if (added.length) phrases.push(`${plural(added.length, "agent")} added (${names(added)})`);
  if (removed.length) phrases.push(`${plural(removed.length, "agent")} removed (${names(removed)})`);

  const before = new Map(saved.agents.map((a) => [a.name, a]));
  for (const agent of draft.agents) {
    const old = before.get(agent.name);
    if (!old) continue;
    const settings = changedSettings(old, agent);
    if (settings.length === 0) continue;
    phrases.push(settings.length > LISTED_SETTINGS ? `${plural(settings.length, "setting")} of ${agent.name} changed` : `${andList(settings)} of ${agent.name} changed`);
  }

  if (saved.entryAgent !== draft.entryAgent) phrases.push(`entry agent ${saved.entryAgent} → ${draft.entryAgent}`);
  if ((saved.mode ?? "agents") !== (draft.mode ?? "agents")) phrases.push(`orchestration ${saved.mode ?? "agents"} → ${draft.mode ?? "agents"}`);
  if (!same(saved.plan, draft.plan)) phrases.push("plan settings changed");
  if (!same(saved.limits, draft.limits)) phrases.push("run limits changed");
  if (phrases.length === 0) phrases.push(same(saved.layout, draft.layout) ? "no differences" : "only node positions moved");
  return phrases;
}
