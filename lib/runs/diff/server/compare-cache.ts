// Finished runs never change, yet every compare read rebuilt both run trees
// from the ledger (~100–250 ms each for 5,000 spans on 2 cores), and so did
// every lazy page of steps as the diff scrolled (the whole tree for 100 steps).
// This keeps, for run trees that have finished, the comparison of a pair and
// every step of a tree (as the steps route sends them), keyed by the state of
// each tree: every run under the compared run with its status and last event
// sequence number. A tree with a run still going is never cached (read as
// before), a tree that moves on gets another key, and what was read while a
// tree moved is not kept. The callers check the session before calling.
// The reads themselves are lib/runs/server/compare.ts's (wired in lib/runs/server/cached-compare.ts).
import "server-only";
import type { CompareStepsPage, CompareStepsQuery, RunComparison, StepView } from "../schemas";
import { SizedLru } from "./lru";

/** What the cache reads through (the ledger in the product, stand-ins in tests). */
export interface CompareSources {
  /** The state a run tree's steps follow from, as a key; null for an unknown run or a tree with a run not finished. */
  treeState: (runId: string) => Promise<string | null>;
  compareRuns: (a: string, b: string) => Promise<RunComparison>;
  compareSteps: (query: CompareStepsQuery) => Promise<CompareStepsPage>;
}

/** Bounds: a 5,000-span tree's steps estimate at ~1.5 MB, its comparison with another at ~0.5 MB. */
const MAX_TREES = 16;
const MAX_TREE_SIZE = 96_000_000;
const MAX_COMPARISONS = 8;
const MAX_COMPARISON_SIZE = 32_000_000;

/** A rough size in bytes (two per character of text), for the cache's bound. */
function stepSize(step: StepView | null): number {
  if (!step) return 8;
  let size = 160 + 2 * (step.path.length + step.agent.length + step.name.length + step.runId.length);
  for (const [name, text] of Object.entries(step.fields)) size += 2 * (name.length + text.length);
  return size;
}

const stepsSize = (steps: readonly (StepView | null)[]) => steps.reduce((n, s) => n + stepSize(s), 0);
const comparisonSize = (c: RunComparison) => 64 * c.rows.length + stepsSize(c.a.steps) + stepsSize(c.b.steps);

export class CompareCache {
  private readonly comparisons = new SizedLru<RunComparison>(MAX_COMPARISONS, MAX_COMPARISON_SIZE);
  private readonly trees = new SizedLru<CompareStepsPage>(MAX_TREES, MAX_TREE_SIZE);
  private readonly reading = new Map<string, Promise<CompareStepsPage>>();
  private checking: Promise<void> = Promise.resolve();

  /** compareRuns (lib/runs/server/compare.ts) of two finished trees from the cache; `scope` names what else the answer depends on (the price table). */
  async compareRuns(sources: CompareSources, a: string, b: string, scope: string): Promise<RunComparison> {
    const states = await Promise.all([sources.treeState(a), sources.treeState(b)]);
    if (states[0] === null || states[1] === null) return sources.compareRuns(a, b);
    const key = [scope, a, b, ...states].join("\n");
    const hit = this.comparisons.get(key);
    if (hit) return hit;
    const comparison = await sources.compareRuns(a, b);
    // Kept once neither tree is seen to have moved during the read; checked after answering, so the
    // first open of a pair does not wait for four more queries.
    this.checking = Promise.all([this.checking, sources.treeState(a), sources.treeState(b)]).then(
      ([, afterA, afterB]) => {
        if (afterA === states[0] && afterB === states[1]) this.comparisons.set(key, comparison, comparisonSize(comparison));
      },
      () => undefined,
    );
    return comparison;
  }

  /** Resolves once the answers given so far have been kept or not (for tests). */
  settled(): Promise<void> {
    return this.checking;
  }

  /** compareSteps (lib/runs/server/compare.ts) of a finished tree, sliced from all its steps, read once. */
  async compareSteps(sources: CompareSources, query: CompareStepsQuery, scope: string): Promise<CompareStepsPage> {
    const state = await sources.treeState(query.run);
    if (state === null) return sources.compareSteps(query);
    const key = [scope, query.run, state].join("\n");
    let tree = this.trees.get(key);
    if (!tree) {
      // Pages asked for together (a fast scroll) wait for one read of the tree, not one each.
      let reading = this.reading.get(key);
      if (!reading) {
        reading = this.readTree(sources, query.run, key, state).finally(() => this.reading.delete(key));
        this.reading.set(key, reading);
      }
      tree = await reading;
    }
    // Another version than the tree's: the uncached read answers, with its 409.
    if (query.version !== undefined && query.version !== tree.version) return sources.compareSteps(query);
    return { runId: tree.runId, version: tree.version, total: tree.total, from: query.from, steps: tree.steps.slice(query.from, query.to) };
  }

  /** Every step of `runId`'s tree, kept when the tree's state is still `state` once read. */
  private async readTree(sources: CompareSources, runId: string, key: string, state: string): Promise<CompareStepsPage> {
    const tree = await sources.compareSteps({ run: runId, from: 0, to: Number.MAX_SAFE_INTEGER });
    if ((await sources.treeState(runId)) === state) this.trees.set(key, tree, stepsSize(tree.steps));
    return tree;
  }
}
