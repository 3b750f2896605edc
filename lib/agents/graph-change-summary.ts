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
  guardrails: "guardrails",
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

/** How many links of a graph name an agent: entry, sub-agent, handoff, router default, plan synthesis. */
function referencesTo(graph: AgentGraph, name: string): number {
  let count = (graph.entryAgent === name ? 1 : 0) + (graph.plan?.synthesisAgent === name ? 1 : 0);
  for (const agent of graph.agents) count += agent.subAgents.filter((n) => n === name).length + agent.handoffs.filter((n) => n === name).length + (agent.router?.defaultAgent === name ? 1 : 0);
  return count;
}

/**
 * The differences from `saved` to `draft`, one phrase each, most telling first:
 * agents added and removed, then each changed agent's settings, then the
 * graph's own settings. A draft that only moved nodes says so.
 */
export function summarizeGraphChanges(saved: AgentGraph, draft: AgentGraph): string[] {
  const diff = diffGraphs(saved, draft);
  const agentIds = (mark: string) => new Set([...diff.nodes].filter(([id, m]) => m === mark && id.startsWith("agent:")).map(([id]) => id.slice("agent:".length)));
  const added = agentIds("added");
  const removed = agentIds("removed");
  // A rename keeps the agent's place in the list (the designer edits it in place) and moves the links to it:
  // a removed and an added name at the same index, with the old name's links now the new one's (or the
  // same settings), are one agent renamed, compared setting by setting like any other.
  const renamed = new Map<string, string>();
  draft.agents.forEach((agent, i) => {
    const old = saved.agents[i];
    if (!old || !removed.has(old.name) || !added.has(agent.name)) return;
    const linksMoved = referencesTo(saved, old.name) > 0 && referencesTo(draft, old.name) === 0 && referencesTo(draft, agent.name) >= referencesTo(saved, old.name);
    if (linksMoved || changedSettings({ ...old, name: agent.name }, agent).length === 0) renamed.set(agent.name, old.name);
  });
  for (const [now, was] of renamed) {
    added.delete(now);
    removed.delete(was);
  }
  const phrases: string[] = [];
  if (added.size) phrases.push(`${plural(added.size, "agent")} added (${names([...added])})`);
  if (removed.size) phrases.push(`${plural(removed.size, "agent")} removed (${names([...removed])})`);
  for (const [now, was] of renamed) phrases.push(`${was} renamed to ${now}`);

  const before = new Map(saved.agents.map((a) => [a.name, a]));
  for (const agent of draft.agents) {
    const old = before.get(renamed.get(agent.name) ?? agent.name);
    if (!old) continue;
    const settings = changedSettings({ ...old, name: agent.name }, agent);
    if (settings.length === 0) continue;
    phrases.push(settings.length > LISTED_SETTINGS ? `${plural(settings.length, "setting")} of ${agent.name} changed` : `${andList(settings)} of ${agent.name} changed`);
  }

  // The entry agent renamed is the same entry agent.
  if (saved.entryAgent !== draft.entryAgent && renamed.get(draft.entryAgent) !== saved.entryAgent) phrases.push(`entry agent ${saved.entryAgent} → ${draft.entryAgent}`);
  if ((saved.mode ?? "agents") !== (draft.mode ?? "agents")) phrases.push(`orchestration ${saved.mode ?? "agents"} → ${draft.mode ?? "agents"}`);
  if (!same(saved.plan, draft.plan)) phrases.push("plan settings changed");
  if (!same(saved.limits, draft.limits)) phrases.push("run limits changed");
  if (phrases.length === 0) phrases.push(same(saved.layout, draft.layout) ? "no differences" : "only node positions moved");
  return phrases;
}
