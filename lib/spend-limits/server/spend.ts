// What a scope spent in a window, and the check every start that costs money
// makes (lib/runs/launch-saved.ts: the run dialog, POST /api/runs and so the
// client and CLI, a schedule's firing, a webhook's delivery; an experiment's
// start, a playground call, a fork, the CLI on the server host). No
// "server-only": a schedule's firing starts its run in the worker, and the CLI
// is plain Node.
import type { Db } from "../../db/prisma";
import { costAt } from "../../pricing/price-book";
import { cachedPriceBook } from "../../pricing/server/read-price-book";
import { currentApiKey } from "../../audit/context";
import { readHourlyModelTokens, type SpendFilter } from "../../run-ledger/spend-reads";
import { limitReached, measureOf, refusalMessage, scopesOf, windowOf, type LaunchScope, type PriceAt } from "../rules";
import type { SpendMeasure, SpendPeriod, SpendScope } from "../schemas";
import { SpendLimitReached } from "../errors";

/** The prices a measure uses: the price book (lib/pricing), each hour of usage priced at the price in effect at its first call. */
export async function currentPricing(db: Db): Promise<PriceAt> {
  const book = await cachedPriceBook(db);
  return (model, usage, at) => costAt(book, model, usage, at);
}

/** The ledger's filter of a scope: a user's runs are recorded by the starter's email (read now, so runs started under an older email are not counted). */
export async function filterOf(db: Db, scope: SpendScope, scopeId: string): Promise<SpendFilter> {
  if (scope === "graph") return { kind: "graph", name: scopeId };
  if (scope === "user") return { kind: "user", starter: (await db.user.findUnique({ where: { id: scopeId }, select: { email: true } }))?.email ?? scopeId };
  if (scope === "api_key") return { kind: "api_key", apiKeyId: scopeId };
  return { kind: "workspace" };
}

/** What `scope` spent in [window.start, window.end). */
export async function spendOf(db: Db, scope: { scope: SpendScope; scopeId: string }, window: { start: Date; end: Date }, price: PriceAt): Promise<SpendMeasure> {
  return measureOf(await readHourlyModelTokens(db, await filterOf(db, scope.scope, scope.scopeId), window.start.getTime(), window.end.getTime()), price);
}

/** What a limit is called in a refusal: the graph's name, the user's email, the API key's name. */
export async function scopeLabel(db: Db, scope: SpendScope, scopeId: string): Promise<string> {
  if (scope === "user") return (await db.user.findUnique({ where: { id: scopeId }, select: { email: true } }))?.email ?? scopeId;
  if (scope === "api_key") return (await db.apiKey.findUnique({ where: { id: scopeId }, select: { name: true } }))?.name ?? scopeId;
  return scopeId;
}

/**
 * Refuses a run start (402, one line naming the limit) when a limit of its
 * workspace, graph, starter or API key is reached in its current window. The
 * API key is the request's (withApiKey) when it acts as the starter. Called
 * before the start writes anything. An empty graph or user id names no limit
 * (a playground call from scratch, the CLI on the server host).
 */
export async function checkSpendLimits(db: Db, launch: Omit<LaunchScope, "apiKeyId">, options: { now?: Date; price?: PriceAt } = {}): Promise<void> {
  const key = currentApiKey();
  const scopes = scopesOf({ ...launch, apiKeyId: key && key.actorId === launch.userId ? key.apiKeyId : null });
  const limits = await db.spendLimit.findMany({ where: { OR: scopes.map((s) => ({ scope: s.scope, scopeId: s.scopeId })) }, orderBy: { amountUsd: "asc" } });
  if (limits.length === 0) return;
  const now = options.now ?? new Date();
  const price = options.price ?? (await currentPricing(db));
  for (const limit of limits) {
    const window = windowOf(limit.period as SpendPeriod, now);
    const spend = await spendOf(db, { scope: limit.scope as SpendScope, scopeId: limit.scopeId }, window, price);
    if (!limitReached(limit.amountUsd, spend)) continue;
    const label = await scopeLabel(db, limit.scope as SpendScope, limit.scopeId);
    throw new SpendLimitReached(refusalMessage({ scope: limit.scope as SpendScope, scopeLabel: label, period: limit.period as SpendPeriod, amountUsd: limit.amountUsd }, spend, window.end));
  }
}
