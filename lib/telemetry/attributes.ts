// Attribute names of exported spans. The GenAI names are the OpenTelemetry
// semantic conventions' (still "incubating" there, so copied here rather than
// imported from the package's unstable entry point, as its README advises);
// the OpenInference names are what Phoenix reads to show LLM, tool and agent
// spans; `zap.*` is what only this engine knows.

export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  conversationId: "gen_ai.conversation.id",
  toolName: "gen_ai.tool.name",
  toolType: "gen_ai.tool.type",
  toolCallId: "gen_ai.tool.call.id",
  errorType: "error.type",
} as const;

export const OPENINFERENCE = {
  spanKind: "openinference.span.kind",
  modelName: "llm.model_name",
  tokenCountPrompt: "llm.token_count.prompt",
  tokenCountCompletion: "llm.token_count.completion",
  tokenCountTotal: "llm.token_count.total",
  toolName: "tool.name",
} as const;

export const ZAP = {
  spanKind: "zap.span.kind",
  ledgerSpanId: "zap.span.id",
  spanOpen: "zap.span.open",
  runId: "zap.run.id",
  rootRunId: "zap.root_run.id",
  parentRunId: "zap.parent_run.id",
  /** A run is one Temporal workflow: its id is the run id. */
  workflowId: "temporal.workflow.id",
  runStatus: "zap.run.status",
  graphName: "zap.graph.name",
  errorReason: "zap.error.reason",
  /** Continue-as-new generation: 0 for the first execution of a run. */
  generation: "zap.generation",
  attempt: "zap.attempt",
  attempts: "zap.attempts",
  approvalStatus: "zap.approval.status",
  approvalDecidedBy: "zap.approval.decided_by",
  approvalReason: "zap.approval.reason",
} as const;
