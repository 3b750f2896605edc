import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { MetricsDashboard, PendingApprovalsNow } from "@/lib/metrics/schemas";
import { OverviewTiles, runFigures } from "./overview-tiles";

function answer(totals: Partial<MetricsDashboard["totals"]>, pending: PendingApprovalsNow = { count: 0, oldestRequestedAt: null, oldestWaitMs: null }): MetricsDashboard {
  return {
    range: { from: "2026-11-29T00:00:00.000Z", to: "2026-11-29T01:00:00.000Z", stepSeconds: 60, resolution: "minute" },
    breakdown: "none",
    filters: { graph: "triage" },
    totals: totals as MetricsDashboard["totals"],
    series: {},
    pendingApprovals: pending,
    percentileRelativeError: 0.049,
    derived: { queued: 0, lagMs: 0 },
    generatedAt: "2026-11-29T01:00:00.000Z",
  };
}

/** Each tile's figure (and note) by its test id. */
function tiles(data: MetricsDashboard): Record<string, string> {
  const html = renderToStaticMarkup(createElement(OverviewTiles, { data }));
  return Object.fromEntries([...html.matchAll(/data-testid="([^"]+)">([^<]*)</g)].map((m) => [m[1], m[2]]));
}

describe("the overview's tiles", () => {
  it("add up: started is completed + failed + cancelled + still running, and the success rate says what it divides", () => {
    const data = answer({ started_completed: 146, started_failed: 1, started_cancelled: 46, started_running: 10, success_rate: 146 / 193 });
    expect(runFigures(data)).toMatchObject({ started: 203, ended: 193 });
    const shown = tiles(data);
    expect(shown).toMatchObject({ "stat-runs-started": "203", "stat-runs-completed": "146", "stat-runs-failed": "1", "stat-runs-cancelled": "46", "stat-runs-running": "10", "stat-success-rate": "75.6 %" });
    expect(shown["stat-success-rate-note"]).toBe("146 completed of 193 ended");
  });

  it("open the runs list with the same start range, filters and experiment runs, each its status", () => {
    const html = renderToStaticMarkup(createElement(OverviewTiles, { data: answer({ started_completed: 1, started_running: 1 }) }));
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => decodeURIComponent(m[1]!.replaceAll("&amp;", "&")));
    expect(hrefs).toContain("/runs?graph=triage&experiments=1&from=2026-11-29T00:00:00.000Z&to=2026-11-29T00:59:59.999Z");
    expect(hrefs).toContain("/runs?graph=triage&status=completed&experiments=1&from=2026-11-29T00:00:00.000Z&to=2026-11-29T00:59:59.999Z");
    expect(hrefs.some((h) => h.includes("status=active"))).toBe(true);
  });

  it("never call calls without a price $0: alone they are unpriced, beside a priced cost they are counted", () => {
    expect(tiles(answer({ cost: 0, unpriced_calls: 3 }))).toMatchObject({ "stat-cost": "unpriced", "stat-cost-note": "3 model calls without a price" });
    expect(tiles(answer({ cost: 1.5, unpriced_calls: 1 }))).toMatchObject({ "stat-cost": "$1.50", "stat-cost-note": "+ 1 model call without a price" });
    expect(tiles(answer({ cost: 0, unpriced_calls: 0 }))["stat-cost"], "free (the demo models)").toBe("$0");
  });

  it("shorten millions of tokens to fit the tile ('12.3M'), the exact count in its title", () => {
    const html = renderToStaticMarkup(createElement(OverviewTiles, { data: answer({ tokens_in: 12_000_000, tokens_out: 345_678 }) }));
    const tile = /<p[^>]*data-testid="stat-tokens"[^>]*>([^<]*)</.exec(html);
    expect(tile?.[1], "the tile's figure").toBe("12.3M");
    expect(tile?.[0], "the full figure on hover").toContain('title="12,345,678 tokens"');
    expect(tiles(answer({ tokens_in: 12_000_000, tokens_out: 345_678 }))["stat-tokens-note"]).toBe("12M in · 345.7K out");
    expect(/data-testid="stat-tokens"[^>]*>([^<]*)</.exec(renderToStaticMarkup(createElement(OverviewTiles, { data: answer({ tokens_in: 12_000, tokens_out: 345 }) })))?.[1], "below 100,000 in full").toBe("12,345");
  });

  it("say how long the oldest approval has waited, in the product's duration words", () => {
    expect(tiles(answer({}, { count: 2, oldestRequestedAt: "2026-11-29T00:40:00.000Z", oldestWaitMs: 20 * 60_000 + 12_000 }))["stat-approvals-pending-note"]).toBe("oldest waiting 20 min 12 s");
  });
});
