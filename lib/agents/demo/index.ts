// The demo agent graphs the start-up seed makes available.
import supportTriage from "./support-triage.json";
import researchLoop from "./research-loop.json";
import treasury from "./treasury.json";
import type { AgentGraphInput } from "../schemas";

export const DEMO_AGENT_GRAPHS: readonly { name: string; description: string; graph: AgentGraphInput }[] = [
  { name: "support-triage", description: "Support triage with billing and shipping specialists, a knowledge-base MCP server and refunds that need approval.", graph: supportTriage as AgentGraphInput },
  { name: "research-loop", description: "A long research loop that continues as new to keep its history short.", graph: researchLoop as AgentGraphInput },
  { name: "treasury", description: "Ledger transfers that need an approver and run exactly once.", graph: treasury as AgentGraphInput },
];
