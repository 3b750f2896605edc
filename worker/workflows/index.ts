// The workflow bundle's entry point: every workflow type the worker registers.
export { smokeWorkflow } from "./smoke";
export { agentRunWorkflow } from "./agent-run";
export { discoverMcpToolsWorkflow } from "./discover-tools";
export { monitorsTickWorkflow } from "./monitors";
export { playgroundCallWorkflow } from "./playground";
export { experimentWorkflow } from "./experiment";
export { scheduledRunWorkflow } from "./scheduled-run";
export { onlineEvaluatorWorkflow, onlineEvaluationBackfillWorkflow } from "./online-evaluation";
