import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { alignSteps } from "@/lib/runs/diff/align";
import type { RunComparison } from "@/lib/runs/diff/schemas";
import type { RunStep } from "@/lib/runs/diff/steps";
import { DiffView } from "./diff-view";
import { StepCell } from "./step-cell";

const step = (fields: Record<string, string>, extra: Partial<RunStep> = {}): RunStep => ({
  kind: "tool_call",
  path: "",
  agent: "treasurer",
  name: "ledger_transfer",
  fields,
  group: null,
  runId: "r",
  spanId: "s4",
  seq: 1,
  at: "2026-01-01T00:00:00.000Z",
  tokens: null,
  cost: null,
  latencyMs: 12,
  replayed: false,
  ...extra,
});

describe("StepCell", () => {
  it("highlights only the changed field, with the words B added marked on B's side and those it lost on A's", () => {
    const a = step({ arguments: '{"amount":5}', outcome: "ok" });
    const b = step({ arguments: '{"amount":50}', outcome: "ok" });
    const onB = renderToStaticMarkup(createElement(StepCell, { step: b, other: a, changed: ["arguments"], side: "b" }));
    expect(onB.match(/data-changed="true"/g)).toHaveLength(1);
    expect(onB).toMatch(/data-testid="diff-added-text"[^>]*>50</);
    expect(onB).not.toContain("diff-removed-text");
    const onA = renderToStaticMarkup(createElement(StepCell, { step: a, other: b, changed: ["arguments"], side: "a" }));
    expect(onA).toMatch(/data-testid="diff-removed-text"[^>]*>5</);
    expect(onA).not.toContain("diff-added-text");
  });

  it("labels a replayed step and links the step's span in its run's trace", () => {
    const html = renderToStaticMarkup(createElement(StepCell, { step: step({ result: "ok" }, { replayed: true, runId: "run.b-1" }), other: null, changed: [], side: "b" }));
    expect(html).toContain('data-testid="diff-replayed"');
    expect(html).toContain('href="/runs/run.b-1?span=s4"');
  });
});

describe("DiffView", () => {
  it("says where the runs part, the counts and the deltas", () => {
    const a = [step({ result: "one" }), step({ result: "two" }, { name: "other" })];
    const b = [step({ result: "one" }), step({ result: "2" }, { name: "other" }), step({ result: "three" }, { name: "third" })];
    const aligned = alignSteps(a, b);
    const run = (steps: RunStep[], latencyMs: number) => ({ runId: "r", agentName: "x", graphName: "g", graphVersion: { version: 1, variantOf: null }, task: "t", status: "completed" as const, startedAt: "", endedAt: "", totals: { tokens: { inputTokens: 10, outputTokens: 0 }, cost: 0, latencyMs }, steps, version: "1.3", replayedSteps: 0 });
    const comparison: RunComparison = { a: run(aligned.a, 1000), b: run(aligned.b, 1500), rows: aligned.rows, firstDivergence: aligned.firstDivergence, counts: aligned.counts, delta: { tokens: -25, cost: 0, latencyMs: 500 } };
    const html = renderToStaticMarkup(createElement(DiffView, { comparison }));
    expect(html).toMatch(/data-testid="diff-jump"[^>]*>First divergence at step 2</);
    expect(html).toMatch(/data-testid="diff-count-changed"[^>]*>1 changed/);
    expect(html).toMatch(/data-testid="diff-count-added"[^>]*>1 added/);
    expect(html).toContain("Δ tokens −25");
    expect(html).toContain("Δ latency +500 ms");
  });

  it("renders, before hydration, the rows from the first divergence on with their steps, so it is on screen at first paint", () => {
    const a = Array.from({ length: 60 }, (_, i) => step({ result: `r${i}` }, { name: `t${i}` }));
    const b = a.map((s, i) => (i === 40 ? { ...s, fields: { result: "other" } } : s));
    const aligned = alignSteps(a, b);
    const run = (steps: RunStep[]) => ({ runId: "r", agentName: "x", graphName: "g", graphVersion: { version: 1, variantOf: null }, task: "t", status: "completed" as const, startedAt: "", endedAt: "", totals: { tokens: { inputTokens: 0, outputTokens: 0 }, cost: 0, latencyMs: 0 }, steps, version: "1.60", replayedSteps: 0 });
    const comparison: RunComparison = { a: run(aligned.a), b: run(aligned.b), rows: aligned.rows, firstDivergence: aligned.firstDivergence, counts: aligned.counts, delta: { tokens: 0, cost: 0, latencyMs: 0 } };
    const html = renderToStaticMarkup(createElement(DiffView, { comparison }));
    const rows = [...html.matchAll(/data-testid="diff-(?:row|first-divergence)"[^>]*data-step="(\d+)"/g)].map((m) => Number(m[1]));
    expect(rows[0]).toBe(41);
    expect(rows).toEqual(Array.from({ length: rows.length }, (_, i) => 41 + i));
    expect(html).toMatch(/data-testid="diff-first-divergence" data-status="changed"/);
    expect(html).toMatch(/data-testid="diff-added-text"[^>]*>other</);
  });
});
