// Browser-safe contract of the playground (issue 27 §1): load a recorded model
// call, run it alone with edits, save the edited prompt as a new version. One
// schema for every door (server action, route, TypeScript client).
import { z } from "zod";
import { runIdSchema } from "../contract/schemas";
import { agentNameSchema, modelIdSchema } from "../agents/schemas";
import { IMAGE_MEDIA_TYPES } from "../attachments/schemas";
import type { ChatMessage, TokenUsage } from "../contract/types";
import type { PlaygroundTool, ProposedToolCall } from "./contract";
import type { DraftChange, DraftSettings } from "./draft";

export type { PlaygroundTool, ProposedToolCall } from "./contract";

/** At most this many messages in one playground call. */
export const PLAYGROUND_MAX_MESSAGES = 200;
/** At most this many bytes of messages and tools (as JSON) in one call. */
export const PLAYGROUND_MAX_BYTES = 1_000_000;
/** At most this many tools offered in one call. */
export const PLAYGROUND_MAX_TOOLS = 128;
/** What the route accepts before it parses (the 1 MB of content, and room for the JSON around it). */
export const PLAYGROUND_MAX_BODY_BYTES = PLAYGROUND_MAX_BYTES + 64 * 1024;

const spanIdSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,120}$/, "not a span id");

const imageRefSchema = z.strictObject({
  attachmentId: z.string().min(1).max(200),
  mediaType: z.enum(IMAGE_MEDIA_TYPES),
  width: z.number().int().min(0),
  height: z.number().int().min(0),
  bytes: z.number().int().min(0),
  name: z.string().max(500).optional(),
});
const resultRefSchema = z.strictObject({ nodeId: z.string().max(200), agent: z.string().max(200), runId: runIdSchema });
const toolCallSchema = z.strictObject({
  id: z.string().min(1).max(200),
  type: z.literal("function"),
  function: z.strictObject({ name: z.string().min(1).max(200), arguments: z.string() }),
});

/** One message of the conversation, in the ledger's (OpenAI chat) format. */
export const playgroundMessageSchema = z.discriminatedUnion("role", [
  z.strictObject({ role: z.literal("system"), content: z.string() }),
  z.strictObject({ role: z.literal("user"), content: z.string(), images: z.array(imageRefSchema).max(5).optional(), results: z.array(resultRefSchema).max(100).optional() }),
  z.strictObject({ role: z.literal("assistant"), content: z.string().nullable(), tool_calls: z.array(toolCallSchema).max(64).optional() }),
  z.strictObject({ role: z.literal("tool"), tool_call_id: z.string().min(1).max(200), name: z.string().min(1).max(200), content: z.string() }),
]);

export const playgroundToolSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "use 1–128 letters, digits, _ or -"),
  description: z.string().max(20_000),
  parameters: z.record(z.string(), z.unknown()),
});

export const playgroundCallSchema = z.strictObject({
  /** The recorded call this one edits (for the audit row and the worker log); absent for a call from scratch. */
  runId: runIdSchema.optional(),
  spanId: spanIdSchema.optional(),
  agentName: agentNameSchema.default("playground"),
  model: modelIdSchema,
  temperature: z.number().min(0).max(2),
  maxOutputTokens: z.number().int().min(1).max(200_000),
  messages: z
    .array(playgroundMessageSchema)
    .min(1, "send at least one message")
    .max(PLAYGROUND_MAX_MESSAGES, `send at most ${PLAYGROUND_MAX_MESSAGES} messages (the playground's limit)`),
  tools: z.array(playgroundToolSchema).max(PLAYGROUND_MAX_TOOLS, `offer at most ${PLAYGROUND_MAX_TOOLS} tools`).default([]),
});
export type PlaygroundCallInput = z.input<typeof playgroundCallSchema>;

export const loadPlaygroundSchema = z.strictObject({ runId: runIdSchema, spanId: spanIdSchema });

export const savePlaygroundDraftSchema = z.strictObject({
  runId: runIdSchema,
  spanId: spanIdSchema.optional(),
  /** The saved agent graph and the agent in it whose settings change. */
  graphName: agentNameSchema,
  agentName: agentNameSchema,
  /** The version the edit starts from: a newer one saved since is a 409 (as in the designer). */
  baseVersion: z.number().int().min(1),
  systemPrompt: z.string().max(20_000, "keep the system prompt within 20,000 characters"),
  /** Absent: the agent keeps its model as saved (`inherit`, or the one a run was started on instead, stay as they were). */
  model: modelIdSchema.optional(),
  temperature: z.number().min(0).max(2),
  /** Absent: the agent keeps its output cap as saved. */
  maxOutputTokens: z.number().int().min(1).max(200_000).optional(),
});
export type SavePlaygroundDraftInput = z.input<typeof savePlaygroundDraftSchema>;

/** A saved draft: its number, the note it carries and what it changed of the version it was saved on top of. */
export interface PlaygroundDraftSaved {
  graphName: string;
  version: number;
  /** Always true: the playground saves drafts, which are not the graph's default until promoted. */
  draft: true;
  /** The version the draft was saved on top of (the graph's default when the call was opened). */
  baseVersion: number;
  message: string;
  changes: DraftChange[];
}

/** A recorded model call, ready to edit: what the model saw, what it was offered, and what it said. */
export interface PlaygroundCall {
  runId: string;
  spanId: string;
  agentName: string;
  /** The saved graph and version the run executes (null for an inline graph: nothing to save to). */
  graphName: string | null;
  version: number | null;
  /** The graph's default version now (the newest that is not a draft): a draft saves on top of it. */
  latestVersion: number | null;
  /** The calling agent's settings in that default version, which "Save as draft" compares the edit with (null: no such agent there, or an inline graph). */
  base: DraftSettings | null;
  model: string;
  temperature: number;
  maxOutputTokens: number;
  /** The conversation as the model saw it at that call, system prompt first. */
  messages: ChatMessage[];
  /** Earlier messages left out to fit the playground's limit (kept: the system prompt and the newest ones). */
  messagesOmitted: number;
  tools: PlaygroundTool[];
  /** Tool discovery problems, or why the tools could not be described (the call then offers none). */
  toolNotes: string[];
  /** The agent's system prompt as saved (a template with {{context.…}} placeholders); the call saw it rendered. */
  promptTemplate: string | null;
  /** The run timeout a model call of this run had, in seconds. */
  timeoutSeconds: number;
  original: PlaygroundOutput;
}

/** What one call produced. */
export interface PlaygroundOutput {
  model: string;
  content: string | null;
  /** Calls the model proposed: shown, never executed. */
  toolCalls: ProposedToolCall[];
  usage: TokenUsage;
  /** US dollars from the price table, or null when the model has no price. */
  costUsd: number | null;
  latencyMs: number | null;
}

export interface PlaygroundResult extends PlaygroundOutput {
  finishReason: string;
  at: string;
}
