import { z } from "zod";

/**
 * The tape: recorded results a run may reuse instead of executing (forks, experiments, dataset
 * tapes). Browser-safe: no server imports. Shapes are a contract shared by forks, experiments and
 * datasets; extend them, never break them.
 */

/** Where in a run tree a step happened, independent of the uuids in child run ids: "" for the root run, ".billing#1" for the first conversation with billing, ".route-1-billing#1", ".node-n1#1" … (the exact rule is in lib/tapes/paths.ts). */
export type TapePath = string;

export interface RecordedModelResponse {
  text: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  usage: { inputTokens: number; outputTokens: number };
  model: string;
}

export interface RecordedDecision {
  approved: boolean;
  reason?: string | null;
  editedArguments?: Record<string, unknown> | null;
  decidedBy?: string | null;
}

/**
 * An entry someone wrote rather than recorded (a fork's edited tool result or model output): who (email)
 * and when. The engine replays it as `edited`, never as `replayed`, so it never passes for a recording.
 */
export interface TapeEdit {
  by: string;
  at: string;
}

export type TapeEntry =
  // A recorded model response reused at the same place (forks): conversation path + iteration.
  | { kind: "model"; path: TapePath; iteration: number; response: RecordedModelResponse; edited?: TapeEdit }
  // A recorded tool result reused at the same place by the same tool (forks): path + iteration + call id, and `tool`.
  | {
      kind: "tool_at";
      path: TapePath;
      iteration: number;
      callId: string;
      tool: string;
      outcome: "ok" | "error" | "rejected";
      result: string;
      approval?: RecordedDecision;
      edited?: TapeEdit;
    }
  // A recorded tool result reused by any call of that tool with equal (canonical JSON) arguments, each entry at most once, in order (experiments, dataset tapes).
  | {
      kind: "tool_call";
      tool: string;
      arguments: unknown;
      outcome: "ok" | "error" | "rejected";
      result: string;
      approval?: RecordedDecision;
    }
  // A declared stub: any call of `tool` not matched above gets this result (experiments).
  | { kind: "tool_stub"; tool: string; result: string };

export interface TapeSettings {
  /** Tools that may run for real when nothing on the tape matches (experiments: only side-effect-free ones are allowed). Forks: every tool (after the fork point the run is live). */
  live: "all" | { tools: string[] };
  /** What an approval-gated call gets when the tape holds no decision for it: "inbox" (forks: normal approvals after the fork point), or an automatic decision (experiments never reach the inbox). */
  approvals: "inbox" | "approve" | "reject";
}

export const MAX_TAPE_ENTRIES = 20_000;

// ---- zod mirrors of the types above, for every boundary that receives a tape ----

const nonEmpty = z.string().min(1).max(200);
const tapePathSchema = z.string().max(2_000);
const resultText = z.string().max(1_000_000);

export const recordedDecisionSchema = z
  .object({
    approved: z.boolean(),
    reason: z.string().max(10_000).nullish(),
    editedArguments: z.record(z.string(), z.unknown()).nullish(),
    decidedBy: z.string().max(500).nullish(),
  })
  .strict();

export const recordedModelResponseSchema = z
  .object({
    text: z.string().max(1_000_000).nullable(),
    toolCalls: z.array(
      z.object({ id: nonEmpty, name: nonEmpty, arguments: z.string().max(1_000_000) }).strict(),
    ),
    usage: z
      .object({ inputTokens: z.number().int().min(0), outputTokens: z.number().int().min(0) })
      .strict(),
    model: z.string().max(200),
  })
  .strict();

const outcomeSchema = z.enum(["ok", "error", "rejected"]);

export const tapeEditSchema = z.object({ by: z.string().min(1).max(500), at: z.string().datetime() }).strict();

export const tapeEntrySchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("model"),
      path: tapePathSchema,
      iteration: z.number().int().min(0),
      response: recordedModelResponseSchema,
      edited: tapeEditSchema.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal("tool_at"),
      path: tapePathSchema,
      iteration: z.number().int().min(0),
      callId: nonEmpty,
      tool: nonEmpty,
      outcome: outcomeSchema,
      result: resultText,
      approval: recordedDecisionSchema.optional(),
      edited: tapeEditSchema.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal("tool_call"),
      tool: nonEmpty,
      arguments: z.unknown(),
      outcome: outcomeSchema,
      result: resultText,
      approval: recordedDecisionSchema.optional(),
    })
    .strict(),
  z.object({ kind: z.literal("tool_stub"), tool: nonEmpty, result: resultText }).strict(),
]);

export const tapeSettingsSchema = z
  .object({
    live: z.union([
      z.literal("all"),
      z.object({ tools: z.array(nonEmpty).max(500) }).strict(),
    ]),
    approvals: z.enum(["inbox", "approve", "reject"]),
  })
  .strict();

export const tapeEntriesSchema = z.array(tapeEntrySchema).max(MAX_TAPE_ENTRIES);

// Compile-time check that the zod mirrors and the contract types agree.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const entryTypesAgree: Same<z.infer<typeof tapeEntrySchema>, TapeEntry> = true;
const settingsTypesAgree: Same<z.infer<typeof tapeSettingsSchema>, TapeSettings> = true;
void entryTypesAgree;
void settingsTypesAgree;
