// The spend check of a run that is already working (issue 39 §3): the model-call
// activity asks it before calling the model, for runs whose workflow asks for it
// (the spend-limits-in-run patch). No "server-only": the worker runs it.
//
// It is on every model call, so it is cheap when nothing applies: the limits
// table is read at most every few seconds per worker, a run's scope once, and a
// limit's spend at most every few seconds while it is under the limit. A stale
// read can only find a limit late (by those seconds), never wrongly: a limit
// found reached is read again, fresh, before the run is paused or stopped, so a
// limit an admin has just raised lets the run go on at once.
import type { Db } from "../../db/prisma";
import { formatCost } from "../../format/figures";
import type { SpendLimitHit } from "../../contract/spend-limit-approval";
import { limitName, limitReached, scopesOf, windowOf, type LaunchScope, type PriceAt } from "../rules";
import type { SpendPeriod, SpendScope } from "../schemas";
import { currentPricing, scopeLabel, spendOf } from "./spend";
import { readRunStarter } from "../../run-ledger/spend-reads";

type LimitRow = Awaited<ReturnType<Db["spendLimit"]["findMany"]>>[number];

export interface RunSpendCheckOptions {
  /** How long the limits table and an under-limit spend are reused (ms). */
  cacheMs?: number;
  now?: () => Date;
  price?: PriceAt;
}

const DEFAULT_CACHE_MS = 3000;
/** Runs whose scope is remembered (a scope never changes; the oldest go first). */
const SCOPE_CAPACITY = 2000;

/**
 * The limit of `rootRunId`'s scope that is reached, or null; a "stop" limit before an "ask" one. `written`: the
 * run's ledger write in flight (it holds the last call's usage), awaited before any spend is read, and only when a
 * limit applies (a run without limits does not wait for it).
 */
export type RunSpendCheck = (rootRunId: string, written?: Promise<unknown>) => Promise<SpendLimitHit | null>;

export function createRunSpendCheck(db: Db, options: RunSpendCheckOptions = {}): RunSpendCheck {
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  const now = options.now ?? (() => new Date());
  let limits: { rows: LimitRow[]; at: number } | null = null;
  const scopes = new Map<string, { scope: LaunchScope | null; at: number }>();
  const spends = new Map<string, { usd: number; windowStart: number; at: number }>();

  async function limitRows(fresh: boolean): Promise<LimitRow[]> {
    const at = Date.now();
    if (!fresh && limits && at - limits.at < cacheMs) return limits.rows;
    const rows = await db.spendLimit.findMany({ orderBy: { amountUsd: "asc" } });
    limits = { rows, at };
    return rows;
  }

  /** Who the run tree counts toward: its root's graph, starter and API key (null: the root is not recorded yet). */
  async function scopeOf(rootRunId: string): Promise<LaunchScope | null> {
    const known = scopes.get(rootRunId);
    // A tree with a key is known once its "run.started" row is written, just after the start: asked again a while.
    if (known && (known.scope?.apiKeyId || Date.now() - known.at < 30_000)) return known.scope;
    const root = await readRunStarter(db, rootRunId);
    let scope: LaunchScope | null = null;
    if (root) {
      const [user, started] = await Promise.all([
        root.startedBy ? db.user.findUnique({ where: { email: root.startedBy }, select: { id: true } }) : null,
        db.auditEvent.findFirst({ where: { action: "run.started", target: rootRunId }, select: { details: true } }),
      ]);
      scope = { graph: root.graphName ?? "", userId: user?.id ?? "", apiKeyId: apiKeyOf(started?.details ?? null) };
    }
    scopes.delete(rootRunId);
    scopes.set(rootRunId, { scope, at: known?.at ?? Date.now() });
    if (scopes.size > SCOPE_CAPACITY) scopes.delete(scopes.keys().next().value ?? rootRunId);
    return scope;
  }

  async function spent(row: LimitRow, at: Date, price: PriceAt, fresh: boolean): Promise<{ usd: number; window: { start: Date; end: Date } }> {
    const window = windowOf(row.period as SpendPeriod, at);
    const cached = spends.get(row.id);
    if (!fresh && cached && cached.windowStart === window.start.getTime() && Date.now() - cached.at < cacheMs) return { usd: cached.usd, window };
    const measure = await spendOf(db, { scope: row.scope as SpendScope, scopeId: row.scopeId }, window, price);
    spends.set(row.id, { usd: measure.pricedUsd, windowStart: window.start.getTime(), at: Date.now() });
    return { usd: measure.pricedUsd, window };
  }

  async function reached(rootRunId: string, fresh: boolean, written: Promise<unknown>): Promise<{ row: LimitRow; usd: number; windowEnd: Date } | null> {
    const rows = await limitRows(fresh);
    if (rows.length === 0) return null;
    const scope = await scopeOf(rootRunId);
    const applies = scopesOf(scope ?? { graph: "", userId: "", apiKeyId: null }).filter((s) => s.scopeId !== "" || s.scope === "workspace");
    const mine = rows.filter((row) => applies.some((s) => s.scope === row.scope && s.scopeId === row.scopeId));
    if (mine.length === 0) return null;
    // Its failure is the caller's to report (the write is awaited there too).
    await written.catch(() => undefined);
    const at = now();
    const price = options.price ?? (await currentPricing(db));
    let found: { row: LimitRow; usd: number; windowEnd: Date } | null = null;
    for (const row of mine) {
      const { usd, window } = await spent(row, at, price, fresh);
      if (!limitReached(row.amountUsd, { pricedUsd: usd, unpricedTokens: 0, unpricedModels: [] })) continue;
      // A limit that stops runs wins over one that asks: asking would only delay the stop.
      if (row.onReached === "stop") return { row, usd, windowEnd: window.end };
      found ??= { row, usd, windowEnd: window.end };
    }
    return found;
  }

  return async (rootRunId, written = Promise.resolve()) => {
    if (!(await reached(rootRunId, false, written))) return null;
    const hit = await reached(rootRunId, true, written);
    if (!hit) return null;
    const { row, usd, windowEnd } = hit;
    const scope = row.scope as SpendScope;
    const period = row.period as SpendPeriod;
    const label = scope === "workspace" ? "Workspace" : await scopeLabel(db, scope, row.scopeId);
    return {
      limitId: row.id,
      scope,
      scopeLabel: label,
      period,
      amountUsd: row.amountUsd,
      spentUsd: usd,
      onReached: row.onReached === "stop" ? "stop" : "ask",
      windowEnd: windowEnd.toISOString(),
      message: `${formatCost(usd)} spent of ${limitName({ scope, scopeLabel: label, period, amountUsd: row.amountUsd })}`,
    };
  };
}

/** The API key a run was started with, from its "run.started" audit row's details (JSON text). */
function apiKeyOf(details: string | null): string | null {
  if (!details) return null;
  try {
    const parsed: unknown = JSON.parse(details);
    if (parsed && typeof parsed === "object" && "apiKeyId" in parsed && typeof parsed.apiKeyId === "string") return parsed.apiKeyId;
  } catch {
    // An unreadable row names no key.
  }
  return null;
}
