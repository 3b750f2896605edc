// Version labels (issue 40 §3): a label names one version of a graph (at most one
// per label and graph); a run started by the label takes that version, or, for a
// traffic split's share, the split's version. Browser-safe: the pages, the routes,
// the client and the server share these shapes.
import { z } from "zod";
import { agentNameSchema } from "../agents/schemas";

/** A label's name: `production`, `staging`, `canary-eu`… */
export const LABEL_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;
export const labelNameSchema = z
  .string()
  .regex(LABEL_NAME_PATTERN, "a label is a lowercase letter then up to 31 lowercase letters, digits, '-' or '_' (e.g. production)");

/** The label protected when no admin said otherwise (lib/labels/protection.ts). */
export const DEFAULT_PROTECTED_LABELS: readonly string[] = ["production"];

/** A context key a split may stick to: a top-level key of the run's context (e.g. customerId). */
export const splitContextKeySchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, "a context key is a name such as customerId (letters, digits, '_', '.', '-')");

const versionNumber = z.number().int("a version is a whole number").min(1, "versions start at 1");

/**
 * A traffic split: `percent` of the label's runs go to `version`. `sticky` says what
 * the draw is made from: "conversation" (the run's own id: a follow-up stays on its run
 * anyway) or "context" (the value of `contextKey` in the run's context: the same value
 * always draws the same side).
 */
export const splitSchema = z
  .strictObject({
    version: versionNumber,
    percent: z.number().min(0, "a share is 0 to 100 (%)").max(100, "a share is 0 to 100 (%)"),
    sticky: z.enum(["conversation", "context"]).default("conversation"),
    contextKey: splitContextKeySchema.optional(),
  })
  .superRefine((split, ctx) => {
    if (split.sticky === "context" && !split.contextKey) ctx.addIssue({ code: "custom", path: ["contextKey"], message: "name the context key the split sticks to (e.g. customerId)" });
    if (split.sticky === "conversation" && split.contextKey) ctx.addIssue({ code: "custom", path: ["contextKey"], message: "a context key is only for sticky: \"context\"" });
  });
export type Split = z.output<typeof splitSchema>;

/** What a change does to a label: point it at a version (with or without a split), or remove it. */
export const labelChangeSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("set"), version: versionNumber, split: splitSchema.nullable() }),
  z.strictObject({ kind: z.literal("remove") }),
]);
export type LabelChange = z.output<typeof labelChangeSchema>;

const note = z.string().trim().max(500, "a note is at most 500 characters").default("");

/** POST /api/agents/:name/labels/:label: point the label at a version (a split optional; `split: null` ends one). */
export const setLabelInput = z.strictObject({ name: agentNameSchema, label: labelNameSchema, version: versionNumber, split: splitSchema.nullable().default(null), note });
/** DELETE /api/agents/:name/labels/:label. */
export const removeLabelInput = z.strictObject({ name: agentNameSchema, label: labelNameSchema, note });
/** GET /api/agents/:name/labels. */
export const listLabelsInput = z.strictObject({ name: agentNameSchema });
/** POST /api/agents/:name/labels/:label/protection (name "*": the whole workspace's word on the label name). */
export const protectLabelInput = z.strictObject({ name: z.union([agentNameSchema, z.literal("*")]), label: labelNameSchema, protected: z.boolean() });

export const labelRequestIdSchema = z.string().regex(/^lmr_[A-Za-z0-9]{8,64}$/, "expected a label request id (lmr_…)");
export const LABEL_REQUEST_STATUSES = ["pending", "approved", "rejected", "cancelled", "stale"] as const;
export type LabelRequestStatus = (typeof LABEL_REQUEST_STATUSES)[number];
/** GET /api/label-requests: the inbox's list (pending unless asked). */
export const listLabelRequestsInput = z.strictObject({ graph: agentNameSchema.optional(), status: z.enum(LABEL_REQUEST_STATUSES).default("pending") });
/** POST /api/label-requests/:requestId/decision. */
export const decideLabelRequestInput = z.strictObject({ requestId: labelRequestIdSchema, decision: z.enum(["approve", "reject"]), note: z.string().trim().max(500).optional() });
/** POST /api/label-requests/:requestId/cancel: the requester withdraws it. */
export const cancelLabelRequestInput = z.strictObject({ requestId: labelRequestIdSchema });

export interface LabelView {
  name: string;
  version: number;
  split: Split | null;
  /** Whether moving it needs an approved request. */
  protected: boolean;
  updatedAt: string;
  /** A pending request on this label, if any. */
  pendingRequestId: string | null;
}

export interface LabelList {
  graph: string;
  labels: LabelView[];
  /** Label names protected on this graph that carry no label yet (so the page can say so). */
  protectedNames: string[];
}

/** What a change answers: applied at once, or (a protected label) a request waiting in the inbox. */
export type LabelChangeResult = { status: "applied"; label: LabelView | null } | { status: "requested"; request: LabelRequestView };

export interface LabelRequestView {
  id: string;
  graph: string;
  label: string;
  fromVersion: number | null;
  change: LabelChange;
  note: string;
  status: LabelRequestStatus;
  requestedBy: { id: string; email: string };
  requestedAt: string;
  decidedBy: { id: string; email: string } | null;
  decidedAt: string | null;
  decisionNote: string | null;
  /** The graph's field changes from the label's version to the requested one (lib/agents/graph-diff.ts); empty for a removal or the same version. */
  diff: { path: string; before?: unknown; after?: unknown }[];
}

/** One side of a split, compared on the dashboard. */
export interface VariantStats {
  variant: "base" | "split";
  version: number | null;
  runs: number;
  ended: number;
  completed: number;
  /** completed / ended, null before any run ended. */
  successRate: number | null;
  successInterval: { low: number; high: number } | null;
  medianLatencyMs: number | null;
  /** US dollars over the side's runs; null when some usage has no price. */
  cost: number | null;
  /** Runs with a score: the mean of its online evaluators' scores, else its feedback (a named value, or thumbs as 1/0). */
  scored: number;
  meanScore: number | null;
  scoreInterval: { low: number; high: number } | null;
  /** Each online evaluator that scored runs of this side: how many and their mean (by name). */
  evaluators: { name: string; scored: number; meanScore: number }[];
}

export interface LabelComparison {
  graph: string;
  label: string;
  split: Split | null;
  baseVersion: number;
  variants: [VariantStats, VariantStats];
  /** One sentence on whether the difference is more than noise (lib/experiments/stats.ts). */
  significance: string;
}
