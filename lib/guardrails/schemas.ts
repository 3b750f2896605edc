// Guardrails (issue 40 §1): checks an agent runs on what comes in (the task or
// a follow-up), what goes out (the final answer), and each tool call (its
// arguments before it runs, its result before the model sees it). Pure and
// browser-safe: the designer validates and tries them with the same code the
// worker runs. This file is the contract between the designer, the checks
// (lib/guardrails/checks/) and the engine (worker/workflows/guardrails*.ts).
import { z } from "zod";

export const GUARDRAIL_KINDS = ["input", "output", "tool_call", "tool_result"] as const;
export type GuardrailKind = (typeof GUARDRAIL_KINDS)[number];

export const PII_DETECTORS = ["email", "phone", "card", "iban", "api_key"] as const;
export type PiiDetector = (typeof PII_DETECTORS)[number];

/** What a tripped guardrail does. */
export const GUARDRAIL_ACTIONS = ["block", "mask", "rewrite", "inbox", "log"] as const;
export type GuardrailAction = (typeof GUARDRAIL_ACTIONS)[number];

export const guardrailNameSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "use 1–64 lowercase letters, digits, _ or -, starting with a letter or digit");

/** Deterministic checks: pure functions of the text, run in the workflow itself (replayed, never re-decided). */
const regexCheckSchema = z.strictObject({
  type: z.literal("regex"),
  /** ECMAScript syntax, matched on RE2 (linear time): backreferences and lookaround are refused when saved. */
  pattern: z.string().min(1).max(1000),
  caseInsensitive: z.boolean().default(false),
});
const denyListCheckSchema = z.strictObject({
  type: z.literal("deny_list"),
  terms: z.array(z.string().trim().min(1).max(200)).min(1).max(500),
  caseSensitive: z.boolean().default(false),
});
const piiCheckSchema = z.strictObject({
  type: z.literal("pii"),
  detectors: z.array(z.enum(PII_DETECTORS)).min(1),
});
const jsonSchemaCheckSchema = z.strictObject({
  type: z.literal("json_schema"),
  /** The text (or a tool call's arguments) must be JSON matching this schema; patterns run on RE2 (lib/json-schema). */
  schema: z.record(z.string(), z.unknown()),
});
const maxLengthCheckSchema = z.strictObject({
  type: z.literal("max_length"),
  chars: z.number().int().min(1).max(1_000_000),
});
/** A model grades the text against a rubric (an activity; the demo model judges offline, deterministically). */
const judgeCheckSchema = z.strictObject({
  type: z.literal("judge"),
  rubric: z.string().trim().min(1).max(4000),
  /** Any configured model id; absent: the agent's own model. */
  model: z.string().min(1).optional(),
  /** The text passes when the judge's score (0–1) is at least this. */
  passAt: z.number().min(0).max(1).default(0.5),
});
/** An admin-registered check (a built-in function or an MCP tool), by name: never user code on the server. */
const customCheckSchema = z.strictObject({
  type: z.literal("custom"),
  // A built-in name ("prompt_injection") or "<server>__<tool>" (server: lowercase, digits, _; tool: as MCP names them).
  check: z.string().regex(/^[a-z0-9][A-Za-z0-9_.-]{0,99}$/, "use a built-in check's name or <server>__<tool>"),
});

export const guardrailCheckSchema = z.discriminatedUnion("type", [regexCheckSchema, denyListCheckSchema, piiCheckSchema, jsonSchemaCheckSchema, maxLengthCheckSchema, judgeCheckSchema, customCheckSchema]);
export type GuardrailCheck = z.infer<typeof guardrailCheckSchema>;
export type GuardrailCheckType = GuardrailCheck["type"];

/** Checks whose findings are spans of the text, so `mask` can redact exactly them. */
export const MASKABLE_CHECKS: readonly GuardrailCheckType[] = ["regex", "deny_list", "pii"];

export const guardrailSchema = z.strictObject({
  name: guardrailNameSchema,
  kind: z.enum(GUARDRAIL_KINDS),
  /** For tool kinds: the tools it watches (glob patterns as in approval rules); absent: every tool. */
  tools: z.array(z.string().min(1)).max(50).optional(),
  check: guardrailCheckSchema,
  action: z.enum(GUARDRAIL_ACTIONS),
  /** With `rewrite`: how many times the model may rewrite before the run is blocked. */
  maxRewrites: z.number().int().min(1).max(3).default(1),
  /** Input guardrails only: run beside the first model call and cancel it when they trip (fail fast). */
  parallel: z.boolean().default(false),
});
export type Guardrail = z.infer<typeof guardrailSchema>;
export type GuardrailInput = z.input<typeof guardrailSchema>;

/** One thing a check found, as a span of the checked text (absent for whole-text verdicts: judge, json_schema, max_length). */
export interface GuardrailFinding {
  /** What found it: a PII detector, "regex", "deny_list"; never the matched text itself (it may be the secret). */
  detector: string;
  start: number;
  end: number;
}

/** A check's verdict on one text. `reason` is one sentence a user reads; it never quotes what was found. */
export interface GuardrailVerdict {
  tripped: boolean;
  reason: string;
  findings: GuardrailFinding[];
  /** Judge checks: the score the judge gave (0–1). */
  score?: number;
}
