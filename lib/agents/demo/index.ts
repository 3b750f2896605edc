// The demo agent graphs the start-up seed makes available.
import supportTriage from "./support-triage.json";
import researchLoop from "./research-loop.json";
import treasury from "./treasury.json";
import invoiceTriage from "./invoice-triage.json";
import helpDesk from "./help-desk.json";
import frontDesk from "./front-desk.json";
import tripPlanner from "./trip-planner.json";
import imageDescriber from "./image-describer.json";
import type { AgentGraphInput } from "../schemas";

export const DEMO_AGENT_GRAPHS: readonly { name: string; description: string; graph: AgentGraphInput }[] = [
  { name: "support-triage", description: "Support triage with billing and shipping specialists, a knowledge-base MCP server and refunds that need approval.", graph: supportTriage as AgentGraphInput },
  { name: "research-loop", description: "A long research loop that continues as new to keep its history short.", graph: researchLoop as AgentGraphInput },
  { name: "treasury", description: "Ledger transfers that need an approver and run exactly once.", graph: treasury as AgentGraphInput },
  { name: "invoice-triage", description: "Looks invoices up in the demo ERP and answers with typed data (answer, confidence, sources, action required, escalation reason).", graph: invoiceTriage as AgentGraphInput },
  { name: "help-desk", description: "A router that sends each request to a billing, technical or general specialist, and tries another when one fails.", graph: helpDesk as AgentGraphInput },
  { name: "front-desk", description: "A front desk that hands refunds to a refund specialist and technical problems to tech support for good.", graph: frontDesk as AgentGraphInput },
  { name: "image-describer", description: "Reads the images attached to a task or a follow-up (on the offline demo/vision model): format, dimensions and dominant colour of each.", graph: imageDescriber as AgentGraphInput },
  { name: "trip-planner", description: "Plan and execute: a planner splits a trip into flight and hotel research that run in parallel, then an itinerary that uses both.", graph: tripPlanner as AgentGraphInput },
];
