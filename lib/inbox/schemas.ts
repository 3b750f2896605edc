// Browser-safe types and input schemas of the approval inbox and its audit.
import { z } from "zod";
import type { ApprovalRequest } from "../contract/types";
import type { PlanLimits } from "../contract/plan-approval";
import type { UsageCost } from "../runs/schemas";
import { runIdSchema } from "../contract/schemas";
import { ARGUMENTS_MAX_BYTES, boundedJsonObject, REASON_MAX_CHARS } from "../http/limits";
import { AUDIT_ACTIONS } from "../audit/actions";

/** One link of the chain from the root run down to the run that asks. */
export interface RunLink {
  runId: string;
  agentName: string;
}

/** Who launched a run tree: a person (by email, with the name we know) — an API key acts as its owner. */
export interface RunStarter {
  email: string;
  name: string | null;
}

/**
 * What tells one waiting call from another identical one: the graph and
 * version it runs, the asking run's task and who started the run tree.
 */
export interface RunIdentity {
  /** The saved graph (null for an inline graph started through the API). */
  graphName: string | null;
  /** The saved version the run executes; null for an unsaved variant (see `variantOf`). */
  version: number | null;
  /** An unsaved variant (a fork with an edited prompt or model, or a sub-run of one): the saved version it derives from. Absent otherwise. */
  variantOf?: number;
  /** The first non-empty line of the asking run's task, at most 160 characters. */
  task: string;
  startedBy: RunStarter | null;
  /** The asking run is a fork or a sub-run of one: the task is the origin's, so the card says whose fork it is. Absent otherwise. */
  fork?: ForkIdentity;
}

/** What a fork's tree is a fork of, and which of its steps someone wrote rather than recorded. */
export interface ForkIdentity {
  /** The run the fork was made from (its origin tree's root, or the sub-run holding the step). */
  originRunId: string;
  /** The step forked at: its span id, and its kind and name ("tool calculator") while its span is in the ledger. */
  spanId: string | null;
  step: string | null;
  /** Steps written instead of recorded: the fork's own edit, or one carried from the fork it was made from. Empty when none. */
  edits: ForkStepEdit[];
}

export interface ForkStepEdit {
  /** "tool calculator", "inference demo/treasurer". */
  step: string;
  kind: "tool_result" | "model_output";
  by: string;
  at: string;
  /** Made in an earlier fork this one was forked from. */
  inherited: boolean;
}

/** A pending approval with what a person needs to decide it. */
export interface InboxItem extends ApprovalRequest {
  /** Root run first, the asking run last (one link for a top-level run). */
  chain: RunLink[];
  /** Graph, version, task and starter of the asking run (absent from older servers' answers). */
  identity?: RunIdentity;
  /** Emails of the people who already decided an approval of this run tree ("mine" for them too). */
  decidedBefore?: string[];
  /** Text of the assistant message that made the call (null when it had none). */
  precedingMessage: string | null;
  /** Tokens and cost of the asking run itself, and of the whole run tree (each run counted once). */
  runUsage: UsageCost;
  treeUsage: UsageCost;
  /** The tool's JSON schema (built-in tools); null when unknown (MCP tools: raw JSON only). */
  toolSchema: Record<string, unknown> | null;
  /** A plan approval: the cards and size an edited plan must keep (the workflow checks the same). */
  planLimits?: PlanLimits;
}

/** A decided call of a run with what it did after the decision (the tool's result), for the run page, the inbox and the conversation. */
export interface DecidedCall {
  approvalId: string;
  runId: string;
  toolCallId: string;
  toolName: string;
  status: "approved" | "rejected" | "expired";
  decidedBy: string | null;
  decidedAt: string | null;
  editedArguments: Record<string, unknown> | null;
  /** The tool's result after the decision; null until the tool has answered. */
  result: string | null;
}

export const runDecisionsInputSchema = z.strictObject({ runId: runIdSchema });

export interface InboxSnapshot {
  items: InboxItem[];
  /** Server time of the snapshot, so countdowns do not depend on the browser's clock. */
  serverTime: string;
}

export const approvalRefSchema = z.strictObject({ runId: runIdSchema, approvalId: runIdSchema });

const reasonSchema = z.string().trim().max(REASON_MAX_CHARS, `keep the reason under ${REASON_MAX_CHARS.toLocaleString("en")} characters`).optional();
const decisionFields = {
  approved: z.boolean({ error: "approved must be true or false" }),
  reason: reasonSchema,
  editedArguments: boundedJsonObject("edited arguments", ARGUMENTS_MAX_BYTES).optional(),
};
type DecisionFields = { approved: boolean; reason?: string; editedArguments?: Record<string, unknown> };

/** The rules of a decision, one or many at once. */
function decisionRules<S extends z.ZodType<DecisionFields>>(schema: S) {
  return schema
    .refine((d) => d.approved || (d.reason !== undefined && d.reason.length > 0), { path: ["reason"], message: "say why you reject: the model reads it" })
    .refine((d) => d.approved || !d.editedArguments, { path: ["editedArguments"], message: "only an approval can edit the arguments" });
}

/** One decision: the inbox's action input; `POST /api/runs/:runId/approvals/:approvalId` takes the ids from its path. */
export const decideInputSchema = decisionRules(approvalRefSchema.extend(decisionFields));
export type DecideInput = z.infer<typeof decideInputSchema>;

export const bulkDecideInputSchema = decisionRules(
  z.strictObject({
    items: z.array(approvalRefSchema).min(1, "select at least one approval").max(200, "decide at most 200 at once"),
    approved: decisionFields.approved,
    reason: reasonSchema,
  }),
);
export type BulkDecideInput = z.infer<typeof bulkDecideInputSchema>;

/** What happened to one approval of a bulk decision. */
export type BulkOutcome = { approvalId: string; ok: true; status: ApprovalRequest["status"] } | { approvalId: string; ok: false; message: string };

/** `withdrawn`: the run ended (cancelled, failed) while the call waited; nobody decided (lib/run-ledger/write.ts). */
export const AUDIT_OUTCOMES = ["approved", "rejected", "expired", "endorsed", "withdrawn"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

const optionalText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => (v ? v : undefined));
const optionalDate = z
  .string()
  .trim()
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    const date = new Date(v);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: "custom", message: "not a date" });
      return z.NEVER;
    }
    return date;
  });

export const auditFilterSchema = z.object({
  tool: optionalText,
  agent: optionalText,
  person: optionalText,
  outcome: z
    .enum(AUDIT_OUTCOMES)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  from: optionalDate,
  to: optionalDate,
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

/** One decision, endorsement or expiry, as the audit shows it. */
export interface AuditRow {
  id: string;
  approvalId: string;
  runId: string;
  tool: string;
  agent: string;
  outcome: AuditOutcome;
  arguments: Record<string, unknown>;
  editedArguments: Record<string, unknown> | null;
  reason: string | null;
  decidedBy: string | null;
  role: string | null;
  requestedAt: string | null;
  decidedAt: string;
  /** Milliseconds from request to this decision (null when the request time is unknown). */
  timeToDecideMs: number | null;
}

/** Filters of the "All events" view of the audit (every action, newest first, paged). */
export const auditEventFilterSchema = z.object({
  action: z
    .enum(AUDIT_ACTIONS)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  person: optionalText,
  from: optionalDate,
  to: optionalDate,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditEventFilter = z.infer<typeof auditEventFilterSchema>;

/** One audit event of any kind, with its place in the hash chain. */
export interface AuditEventRow {
  id: string;
  seq: number | null;
  action: string;
  /** The actor's email; null for the system or an anonymous caller. */
  actor: string | null;
  target: string | null;
  details: Record<string, unknown>;
  at: string;
}

export interface AuditEventPage {
  rows: AuditEventRow[];
  total: number;
  page: number;
  pageSize: number;
}
