import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PlanOutcomeBadge, PlanOutcomeSummary, planCountsText } from "./plan-outcome";

describe("PlanOutcomeBadge", () => {
  it("reads 'partially failed' in amber: the run's own status says completed", () => {
    const html = renderToStaticMarkup(createElement(PlanOutcomeBadge, { outcome: "partially_failed" }));
    expect(html).toContain('data-testid="plan-outcome-badge"');
    expect(html).toContain('data-outcome="partially_failed"');
    expect(html).toContain(">partially failed<");
    expect(html, "the warning tone").toContain("bg-amber-50");
  });

  it("gives the other outcomes their own tones", () => {
    expect(renderToStaticMarkup(createElement(PlanOutcomeBadge, { outcome: "completed" }))).toContain("bg-emerald-50");
    expect(renderToStaticMarkup(createElement(PlanOutcomeBadge, { outcome: "failed" }))).toContain("bg-red-50");
  });
});

describe("PlanOutcomeSummary", () => {
  it("shows the outcome with the plan's node counts, leaving out the kinds no node ended as", () => {
    const html = renderToStaticMarkup(createElement(PlanOutcomeSummary, { outcome: "partially_failed", counts: { completed: 1, failed: 1, skipped: 1, cancelled: 0 } }));
    expect(html).toContain('data-testid="run-plan-outcome"');
    expect(html).toContain(">partially failed<");
    expect(html).toContain(">1 of 3 nodes completed · 1 failed · 1 skipped<");
    expect(planCountsText({ completed: 2, failed: 0, skipped: 0, cancelled: 1 })).toBe("2 of 3 nodes completed · 1 cancelled");
  });

  it("shows the outcome alone when the counts are not known", () => {
    const html = renderToStaticMarkup(createElement(PlanOutcomeSummary, { outcome: "partially_failed", counts: null }));
    expect(html).toContain(">partially failed<");
    expect(html).not.toContain("run-plan-counts");
  });
});
