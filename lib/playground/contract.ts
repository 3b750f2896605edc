// What the web server and the worker exchange for a playground call (issue 27
// §1): one model call run alone, through Temporal, so providers and their keys
// stay in the worker. Types only, without zod: workflow code imports it.
import type { ChatMessage, TokenUsage } from "../contract/types";
import type { AgentConfig } from "../agents/schemas";

/** The workflow type the worker registers (worker/workflows/playground.ts). */
export const PLAYGROUND_WORKFLOW_TYPE = "playgroundCallWorkflow";

/** A function the model may call, as offered to it: name, description, JSON-schema parameters. */
export interface PlaygroundTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A call the model proposed: shown, never executed. */
export interface ProposedToolCall {
  id: string;
  name: string;
  /** The raw argument text as the model produced it (may be malformed JSON). */
  arguments: string;
}

/** Run the call: the conversation as edited, the tools offered, the model and its parameters. */
export interface PlaygroundCallRequest {
  kind: "call";
  /** Names the call in the worker log (the run it came from, when one). */
  label: string;
  agentName: string;
  model: string;
  temperature: number;
  maxOutputTokens: number;
  messages: ChatMessage[];
  tools: PlaygroundTool[];
  /** The call's whole deadline (the run timeout of a model call), in ms. */
  timeoutMs: number;
}

/** Describe an agent's tools as the engine does for a run (built-ins, message_agent, MCP servers). */
export interface PlaygroundDescribeRequest {
  kind: "describe";
  agent: AgentConfig;
  subAgents: { name: string; description: string }[];
}

export type PlaygroundWorkflowInput = PlaygroundCallRequest | PlaygroundDescribeRequest;

export interface PlaygroundCallOutput {
  kind: "call";
  content: string | null;
  toolCalls: ProposedToolCall[];
  usage: TokenUsage;
  finishReason: string;
  latencyMs: number;
}

export interface PlaygroundDescribeOutput {
  kind: "describe";
  tools: PlaygroundTool[];
  /** Tool discovery problems (an unreachable MCP server), in sentences safe to show. */
  errors: string[];
}

/** A model failure the user should read (bad key, unknown model): the call ends with it instead of an output. */
export interface PlaygroundFailedOutput {
  kind: "failed";
  message: string;
}

export type PlaygroundWorkflowOutput = PlaygroundCallOutput | PlaygroundDescribeOutput | PlaygroundFailedOutput;
