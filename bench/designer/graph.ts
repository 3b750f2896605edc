// Generated agent graphs for bench/designer: `n` agents in a tree of fan-out 3
// from "main", each with one built-in tool, laid out on a grid (both pages get
// the same positions, so only rendering differs).
import { agentGraphSchema, type AgentGraph } from "../../lib/agents/schemas";
import { BUILTIN_TOOL_IDS } from "../../lib/tools/catalog";

export function benchGraph(n: number): AgentGraph {
  const name = (i: number) => (i === 0 ? "main" : `agent-${i}`);
  const agents = Array.from({ length: n }, (_, i) => ({
    name: name(i),
    description: `Agent ${i} of the benchmark graph`,
    systemPrompt: `You are agent ${i}. The customer is {{context.customer.name}}.`,
    tools: [BUILTIN_TOOL_IDS[i % BUILTIN_TOOL_IDS.length] ?? "calculator"],
    subAgents: [1, 2, 3].map((k) => i * 3 + k).filter((c) => c < n).map(name),
    approvalRules: i % 10 === 0 ? [{ pattern: "ledger_*" }] : [],
  }));
  const columns = Math.ceil(Math.sqrt(n));
  const nodes: Record<string, { x: number; y: number }> = {};
  for (let i = 0; i < n; i++) nodes[`agent:${name(i)}`] = { x: (i % columns) * 260, y: Math.floor(i / columns) * 150 };
  BUILTIN_TOOL_IDS.forEach((tool, k) => (nodes[`tool:${tool}`] = { x: k * 200, y: -200 }));
  return agentGraphSchema.parse({ entryAgent: "main", agents, layout: { nodes } });
}
