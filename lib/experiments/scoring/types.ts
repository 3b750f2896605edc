// The scoring contract shared by the experiments engine (which observes runs and
// stores scores) and the scorers / compare view. Browser-safe: the compare view
// renders ScorerConfig and Score, so nothing here imports server code.
import { z } from "zod";

export type ScorerConfig =
  | { kind: "exact"; caseSensitive?: boolean } // final text vs expected.output (trimmed)
  | { kind: "contains"; text?: string } // default: expected.output contained in the output
  | { kind: "json_schema"; schema: Record<string, unknown> } // typed answer matches the schema
  | { kind: "json_field"; path: string; equals?: unknown } // field of the typed answer equals `equals` or expected.outputData at path
  | { kind: "trajectory"; order: "strict" | "unordered"; arguments: "exact" | "subset" | "ignore" }
  | { kind: "routing" } // expected.routing.target (and fallback) vs observed
  | { kind: "plan" } // expected.plan: valid plan, cards used, node count, outcome
  | { kind: "latency"; maxMs: number }
  | { kind: "tokens"; max: number }
  | { kind: "cost"; maxUsd: number }
  | { kind: "judge"; rubric: string; model?: string } // LLM-as-judge; default model demo/judge (offline, deterministic)
  | { kind: "recorded" } // the run stood on recorded (or live) steps only: no tool result or model output was written by a person
  | { kind: "custom"; name: string }; // a TypeScript scorer in lib/experiments/scoring/custom/

export type ScorerKind = ScorerConfig["kind"];

/** One scorer's verdict on one run: value in 0..1; pass null when the scorer could not decide (no expectation, unreadable judge reply). */
export interface Score {
  scorer: string;
  value: number;
  pass: boolean | null;
  detail: string;
}

/** What a finished run did, as the scorers see it (built by the engine from the run ledger). */
export interface ObservedRun {
  runId: string;
  status: string;
  output: string | null;
  outputData: unknown;
  errorReason: string | null;
  /**
   * `replayed`: the result came from a recording on the run's tape (the tool did not run). `edited`: it came
   * from the tape but someone wrote it (never `replayed`), so a metric over recorded steps must leave it out.
   */
  toolCalls: { tool: string; arguments: Record<string, unknown>; outcome: string; replayed: boolean; edited: boolean }[];
  /** Every step of the tree that a person wrote (a fork's edit, an imported tape entry marked edited), described with who and when. */
  editedSteps: string[];
  routing: { target: string; fallback: boolean }[];
  plan: { valid: boolean; cards: string[]; nodeCount: number; outcome: string | null } | null;
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/**
 * The parts of a dataset item (lib/datasets/schemas.ts DatasetItem) the scorers read.
 * Structural, so a DatasetItem is accepted as is.
 */
export interface ScoredItem {
  input: { task: string };
  expected: {
    output?: string | null;
    outputData?: unknown;
    trajectory?: { tool: string; arguments: Record<string, unknown> }[];
    routing?: { target: string; fallback?: boolean };
    plan?: { cards?: string[]; nodeCount?: number; outcome?: string };
    negative?: { tool: string; arguments: Record<string, unknown>; reason: string }[];
  };
  tags?: string[];
}

export type JudgeFn = (input: {
  rubric: string;
  model: string;
  task: string;
  output: string | null;
  expected: string | null;
}) => Promise<{ score: number; reason: string }>;

export interface ScoreDeps {
  judge: JudgeFn;
}

/** The judge model used when a judge scorer names none: offline and deterministic. */
export const DEFAULT_JUDGE_MODEL = "demo/judge";

const MAX_RUBRIC = 8_000;
const MAX_SCHEMA_BYTES = 64_000;

const schemaObject = z
  .record(z.string(), z.unknown())
  .refine((schema) => JSON.stringify(schema).length <= MAX_SCHEMA_BYTES, { message: `JSON schema is larger than ${MAX_SCHEMA_BYTES} bytes` });

/** Input validation for a scorer list (experiment start): unknown keys refused. Custom names are checked against the registry by the caller (customScorerNames()). */
export const scorerConfigSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("exact"), caseSensitive: z.boolean().optional() }).strict(),
  z.object({ kind: z.literal("contains"), text: z.string().min(1).max(10_000).optional() }).strict(),
  z.object({ kind: z.literal("json_schema"), schema: schemaObject }).strict(),
  z
    .object({
      kind: z.literal("json_field"),
      path: z.string().min(1).max(500).regex(/^[^.]+(\.[^.]+)*$/, "path must be dotted field names like answer.total or items.0.id"),
      equals: z.unknown().optional(),
    })
    .strict(),
  z.object({ kind: z.literal("trajectory"), order: z.enum(["strict", "unordered"]), arguments: z.enum(["exact", "subset", "ignore"]) }).strict(),
  z.object({ kind: z.literal("routing") }).strict(),
  z.object({ kind: z.literal("plan") }).strict(),
  z.object({ kind: z.literal("recorded") }).strict(),
  z.object({ kind: z.literal("latency"), maxMs: z.number().positive().max(86_400_000) }).strict(),
  z.object({ kind: z.literal("tokens"), max: z.number().int().positive() }).strict(),
  z.object({ kind: z.literal("cost"), maxUsd: z.number().positive() }).strict(),
  z.object({ kind: z.literal("judge"), rubric: z.string().trim().min(1).max(MAX_RUBRIC), model: z.string().min(1).max(200).optional() }).strict(),
  z.object({ kind: z.literal("custom"), name: z.string().min(1).max(100).regex(/^[a-z0-9][a-z0-9_-]*$/, "custom scorer names are lowercase letters, digits, - and _") }).strict(),
]) satisfies z.ZodType<ScorerConfig>;

export const scoreSchema = z.object({
  scorer: z.string(),
  value: z.number().min(0).max(1),
  pass: z.boolean().nullable(),
  detail: z.string(),
}) satisfies z.ZodType<Score>;

/** The stable name a scorer's scores carry (summary columns, thresholds keys): "exact", "trajectory:strict/subset", "custom:refund-policy", "judge". */
export function scorerName(config: ScorerConfig): string {
  switch (config.kind) {
    case "trajectory":
      return `trajectory:${config.order}/${config.arguments}`;
    case "custom":
      return `custom:${config.name}`;
    case "json_field":
      return `json_field:${config.path}`;
    default:
      return config.kind;
  }
}
