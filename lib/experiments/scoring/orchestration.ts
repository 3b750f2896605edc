// Scorers on how the run was orchestrated: routing accuracy and plan checks.
import type { ObservedRun, Score, ScoredItem } from "./types";

/**
 * Routing accuracy on the run's first routing decision (the one the item was
 * recorded from; later ones are re-routes): expected target hit, and — when the
 * item says — whether the fallback was taken. value = share of these checks met.
 */
export function scoreRouting(run: ObservedRun, item: ScoredItem): Score {
  const scorer = "routing";
  const expected = item.expected.routing;
  if (!expected) return { scorer, value: 0, pass: null, detail: "the item has no expected routing" };
  const first = run.routing[0];
  if (!first) return { scorer, value: 0, pass: false, detail: `expected a route to ${expected.target}, but the run was not routed` };
  const checks: { ok: boolean; says: string }[] = [
    { ok: first.target === expected.target, says: first.target === expected.target ? `routed to ${first.target}` : `routed to ${first.target}, expected ${expected.target}` },
  ];
  if (expected.fallback !== undefined) {
    const ok = first.fallback === expected.fallback;
    checks.push({ ok, says: ok ? (first.fallback ? "fallback taken, as expected" : "no fallback, as expected") : first.fallback ? "fallback taken, not expected" : "fallback expected, not taken" });
  }
  const met = checks.filter((check) => check.ok).length;
  const later = run.routing.length > 1 ? ` (then re-routed ${run.routing.length - 1} time(s): ${run.routing.slice(1).map((route) => route.target).join(", ")})` : "";
  return { scorer, value: met / checks.length, pass: met === checks.length, detail: checks.map((check) => check.says).join("; ") + later };
}

/** Plan checks: a valid plan was made, expected cards used, node count and outcome as expected. value = share of checks met. */
export function scorePlan(run: ObservedRun, item: ScoredItem): Score {
  const scorer = "plan";
  const expected = item.expected.plan;
  if (!expected) return { scorer, value: 0, pass: null, detail: "the item has no expected plan" };
  const plan = run.plan;
  if (!plan) return { scorer, value: 0, pass: false, detail: "the run made no plan" };
  const checks: { ok: boolean; says: string }[] = [{ ok: plan.valid, says: plan.valid ? "valid plan" : "the plan was not valid" }];
  if (expected.cards && expected.cards.length > 0) {
    const used = new Set(plan.cards);
    const missing = expected.cards.filter((card) => !used.has(card));
    checks.push({ ok: missing.length === 0, says: missing.length === 0 ? `used ${expected.cards.join(", ")}` : `cards not used: ${missing.join(", ")}` });
  }
  if (expected.nodeCount !== undefined) {
    const ok = plan.nodeCount === expected.nodeCount;
    checks.push({ ok, says: ok ? `${plan.nodeCount} node(s)` : `${plan.nodeCount} node(s), expected ${expected.nodeCount}` });
  }
  if (expected.outcome !== undefined) {
    const ok = plan.outcome === expected.outcome;
    checks.push({ ok, says: ok ? `outcome ${expected.outcome}` : `outcome ${plan.outcome ?? "none"}, expected ${expected.outcome}` });
  }
  const met = checks.filter((check) => check.ok).length;
  return { scorer, value: met / checks.length, pass: met === checks.length, detail: checks.map((check) => check.says).join("; ") };
}
