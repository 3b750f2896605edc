import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { RunEvent } from "@/lib/contract/types";
import type { PlanEvent } from "@/lib/runs/plan-view";
import { LIST_VIEW_ABOVE, PlanDag } from "./plan-dag";
import { EMPTY_PRICE_BOOK } from "@/lib/pricing/price-book";

function planOf(size: number): PlanEvent[] {
  const nodes = Array.from({ length: size }, (_, i) => ({ id: `n${i}`, agent: "worker", objective: `part ${i}`, dependsOn: i === 0 ? [] : [`n${i - 1}`] }));
  const at = "2026-03-01T10:00:00.000Z";
  const events: RunEvent[] = [
    { seq: 1, at, type: "plan_proposed", plan: { nodes }, attempt: 1 },
    { seq: 2, at, type: "plan_node_started", nodeId: "n0", agentName: "worker", runId: "r.node-n0-1", attempt: 1 },
    { seq: 3, at, type: "plan_node_finished", nodeId: "n0", status: "failed", runId: "r.node-n0-1", reason: "model_error: down", attempts: 2 },
  ];
  return events as PlanEvent[];
}

const render = (size: number) => renderToStaticMarkup(createElement(PlanDag, { runId: "r", events: planOf(size), agentModels: {}, prices: EMPTY_PRICE_BOOK }));

describe("PlanDag", () => {
  it("draws a plan of ordinary size as a graph, with the switch to a list", () => {
    const html = render(50);
    expect(html).toContain('data-testid="plan-dag"');
    expect(html).not.toContain('data-testid="plan-list"');
    expect(html).toContain('aria-pressed="true" class="rounded border px-2 py-0.5 border-indigo-500 bg-indigo-50 text-indigo-700">Graph<');
  });

  it(`opens a plan of more than ${LIST_VIEW_ABOVE} nodes as a list: a row per node, 200 at a time, statuses readable`, () => {
    const html = render(1000);
    expect(html).toContain('data-testid="plan-list" data-nodes="1000"');
    expect(html).not.toContain('data-testid="plan-dag"');
    expect(html).toContain('aria-pressed="true" class="rounded border px-2 py-0.5 border-indigo-500 bg-indigo-50 text-indigo-700">List<');
    expect(html.match(/data-testid="plan-row-/g)).toHaveLength(200);
    expect(html).toContain('data-testid="plan-row-n0" data-status="failed"');
    expect(html).toContain("Show 200 more of 800");
    // The filter offers the statuses present, with their counts.
    expect(html).toContain(">failed (1)<");
    expect(html).toContain(">pending (999)<");
  });
});
