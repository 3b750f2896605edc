// The compare reads the routes and the compare page make: lib/runs/server/compare.ts's compareRuns
// and compareSteps through the cache of finished run trees (lib/runs/diff/server/compare-cache.ts),
// each tree's state read from the runs table. Here, not in lib/runs/diff/server, because lib/runs/server
// imports lib/runs (the folders may not import each other). Callers check the session first.
import "server-only";
import type { PriceBook } from "@/lib/runs/pricing";
import { compareRuns, compareSteps } from "@/lib/runs/server/compare";
import type { CompareStepsPage, CompareStepsQuery, RunComparison } from "@/lib/runs/diff/schemas";
import { CompareCache, type CompareSources } from "@/lib/runs/diff/server/compare-cache";
import { finishedTreeState } from "@/lib/runs/diff/server/tree-state";

/** The database handle the reads take. */
type Db = Parameters<typeof compareRuns>[0];

// One cache per process, shared through globalThis: Next builds the page and each route handler as
// bundles of their own, each with its own copy of this module (three caches, none seeing the others).
const holder = globalThis as typeof globalThis & { zapCompareCache?: CompareCache };
const cache = (holder.zapCompareCache ??= new CompareCache());

/**
 * Costs in the cached answers depend on the price book: its contents are part of the keys (each
 * bundle has its own config object, so not its identity). Written out once per book object (a book is reused for a few seconds).
 */
const scopes = new WeakMap<PriceBook, string>();
function scopeOf(prices: PriceBook): string {
  let scope = scopes.get(prices);
  if (scope === undefined) scopes.set(prices, (scope = JSON.stringify(prices)));
  return scope;
}

function ledgerSources(db: Db, prices: PriceBook): CompareSources {
  return {
    treeState: (runId) => finishedTreeState(db, runId),
    compareRuns: (a, b) => compareRuns(db, a, b, prices),
    compareSteps: (query) => compareSteps(db, query, prices),
  };
}

/** `GET /api/runs/compare` and the compare page: compareRuns, finished trees from the cache. */
export function cachedCompareRuns(db: Db, a: string, b: string, prices: PriceBook): Promise<RunComparison> {
  return cache.compareRuns(ledgerSources(db, prices), a, b, scopeOf(prices));
}

/** `GET /api/runs/compare/steps`: compareSteps, finished trees from the cache. */
export function cachedCompareSteps(db: Db, query: CompareStepsQuery, prices: PriceBook): Promise<CompareStepsPage> {
  return cache.compareSteps(ledgerSources(db, prices), query, scopeOf(prices));
}
