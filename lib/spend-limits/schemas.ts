// Spend limits (issue 39 §3): the most a scope (the workspace, a saved graph, a
// user, an API key) may spend on model calls in a UTC day or month. The input of
// every door (page, HTTP API, client) and the view they answer with.
// Browser-safe: the form shows the same messages the API answers with.
import { z } from "zod";
import { agentNameSchema } from "../agents/schemas";

export const SPEND_SCOPES = ["workspace", "graph", "user", "api_key"] as const;
export type SpendScope = (typeof SPEND_SCOPES)[number];

export const SPEND_PERIODS = ["day", "month"] as const;
export type SpendPeriod = (typeof SPEND_PERIODS)[number];

/**
 * What a run already working does once a limit of its scope is reached: `ask` pauses it into the inbox with a
 * "raise the limit / stop" request (as a graph's onBudget "ask"), `stop` ends it failed with spend_limit_reached.
 */
export const SPEND_ON_REACHED = ["ask", "stop"] as const;
export type SpendOnReached = (typeof SPEND_ON_REACHED)[number];

export const SPEND_ON_REACHED_LABELS: Record<SpendOnReached, string> = {
  ask: "Pause running runs into the inbox",
  stop: "Stop running runs",
};

export const SPEND_SCOPE_LABELS: Record<SpendScope, string> = {
  workspace: "Workspace",
  graph: "Graph",
  user: "User",
  api_key: "API key",
};

export const SPEND_LIMITS = {
  /** The largest limit: a typo of three zeros is refused rather than taken as no limit at all. */
  maxAmountUsd: 1_000_000,
  /** Limits the workspace may keep (each launch reads the ones that apply). */
  perWorkspace: 500,
} as const;

export const spendLimitIdSchema = z.string().regex(/^spl_[A-Za-z0-9]{8,64}$/, "expected a spend limit id (spl_…)");

const amountSchema = z
  .number({ error: "give the limit in US dollars" })
  .finite("give the limit in US dollars")
  .min(0, "a limit is not negative (0 refuses every run of the scope)")
  .max(SPEND_LIMITS.maxAmountUsd, `a limit is at most $${SPEND_LIMITS.maxAmountUsd.toLocaleString("en-US")}`);

const idText = z.string().trim().min(1, "name the user or API key by its id").max(100, "an id has at most 100 characters");

const onReachedSchema = z.enum(SPEND_ON_REACHED, { error: 'onReached is "ask" (pause running runs into the inbox) or "stop" (stop them)' }).default("ask");

/** Sets (creates or replaces) the limit of one scope and period. The workspace takes no `scopeId`. `onReached` defaults to "ask". */
export const setSpendLimitInput = z.discriminatedUnion("scope", [
  z.strictObject({ scope: z.literal("workspace"), period: z.enum(SPEND_PERIODS), amountUsd: amountSchema, onReached: onReachedSchema }),
  z.strictObject({ scope: z.literal("graph"), scopeId: agentNameSchema, period: z.enum(SPEND_PERIODS), amountUsd: amountSchema, onReached: onReachedSchema }),
  z.strictObject({ scope: z.literal("user"), scopeId: idText, period: z.enum(SPEND_PERIODS), amountUsd: amountSchema, onReached: onReachedSchema }),
  z.strictObject({ scope: z.literal("api_key"), scopeId: idText, period: z.enum(SPEND_PERIODS), amountUsd: amountSchema, onReached: onReachedSchema }),
]);
/** What a caller sends: `onReached` may be left out. */
export type SetSpendLimitRequest = z.input<typeof setSpendLimitInput>;
export type SetSpendLimitInput = z.output<typeof setSpendLimitInput>;

export const spendLimitRefInput = z.strictObject({ id: spendLimitIdSchema });
export const listSpendLimitsInput = z.strictObject({});

/** What a scope spent in a window: the priced part in dollars, and the usage no price covers (never counted as $0). */
export interface SpendMeasure {
  pricedUsd: number;
  /** Tokens on models without a price at the time they were used. */
  unpricedTokens: number;
  /** Those models, by name. */
  unpricedModels: string[];
}

export interface SpendLimitView {
  id: string;
  scope: SpendScope;
  /** "" for the workspace. */
  scopeId: string;
  /** What the scope is called on the page: the graph's name, the user's email, the key's name. */
  scopeLabel: string;
  period: SpendPeriod;
  amountUsd: number;
  /** What a run already working does once the limit is reached. */
  onReached: SpendOnReached;
  /** The current window (UTC), ISO. */
  windowStart: string;
  windowEnd: string;
  spend: SpendMeasure;
  /** The priced spend has reached the limit: new runs of the scope are refused until the window ends or the limit is raised. */
  reached: boolean;
  updatedAt: string;
  updatedBy: string | null;
}

/** What the page offers to limit (lib/spend-limits/server/targets.ts). */
export interface SpendTargets {
  graphs: string[];
  users: { id: string; email: string }[];
  apiKeys: { id: string; name: string; owner: string }[];
}
