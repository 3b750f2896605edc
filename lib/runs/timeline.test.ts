import { describe, expect, it } from "vitest";
import { indexSpans, subRunIdOf, visibleRows, type TimelineState } from "./timeline";
import type { TraceSpanView } from "./schemas";
import { toSpanView } from "./span-rows";
import { EMPTY_PRICE_BOOK } from "../pricing/price-book";

const t0 = Date.parse("2026-11-22T00:00:00Z");
const at = (ms: number) => new Date(t0 + ms).toISOString();
function span(runId: string, id: string, parentId: string | null, kind: TraceSpanView["kind"], name: string, from: number, to: number, attributes?: TraceSpanView["attributes"]): TraceSpanView {
  return toSpanView(runId, { id, parentId, kind, name, status: "ok", startedAt: at(from), endedAt: at(to), ...(attributes ? { attributes } : {}) }, EMPTY_PRICE_BOOK);
}
const parent = [
  span("p", "s1", null, "run", "triage", 0, 1000),
  span("p", "s2", "s1", "iteration", "iteration 1", 0, 1000),
  span("p", "s3", "s2", "tool", "lookup_order", 100, 200),
  span("p", "s4", "s2", "sub_agent", "billing", 200, 900, { conversationId: "c" }),
];
const child = [span("c", "s1", null, "run", "billing", 250, 850), span("c", "s2", "s1", "tool", "ledger_balance", 300, 400)];
const indexes = new Map([["p", indexSpans(parent)], ["c", indexSpans(child)]]);
const none: TimelineState = { collapsed: new Set(), expandedSubRuns: new Set(), foldedAgents: new Set(), search: "" };

describe("subRunIdOf", () => {
  it("a sub-agent span opens its conversation, or the child a router chose; other spans open nothing", () => {
    expect(subRunIdOf({ kind: "sub_agent", attributes: { conversationId: "c" } })).toBe("c");
    expect(subRunIdOf({ kind: "sub_agent", attributes: { routed: true, attempt: 1, childRunId: "r.route-1-general-ab12" } })).toBe("r.route-1-general-ab12");
    expect(subRunIdOf({ kind: "routing", attributes: { childRunId: "x" } })).toBeNull();
    expect(subRunIdOf({ kind: "sub_agent", attributes: {} })).toBeNull();
  });

  it("a routed child's span expands inline like a sub-agent's", () => {
    const routed = [span("r", "s1", null, "run", "help-desk", 0, 1000), span("r", "s2", "s1", "sub_agent", "general", 100, 900, { routed: true, childRunId: "c" })];
    const open = visibleRows("r", new Map([["r", indexSpans(routed)], ["c", indexSpans(child)]]), { ...none, expandedSubRuns: new Set(["c"]) }, "help-desk");
    expect(open.map((r) => r.key)).toEqual(["r/s1", "r/s2", "c/s1", "c/s2"]);
  });
});

describe("visibleRows", () => {
  it("opens a sub-run inline only when expanded, under its sub_agent span", () => {
    expect(visibleRows("p", indexes, none, "triage").map((r) => r.key)).toEqual(["p/s1", "p/s2", "p/s3", "p/s4"]);
    const open = visibleRows("p", indexes, { ...none, expandedSubRuns: new Set(["c"]) }, "triage");
    expect(open.map((r) => `${r.key}@${r.depth}`)).toEqual(["p/s1@0", "p/s2@1", "p/s3@2", "p/s4@2", "c/s1@3", "c/s2@4"]);
    expect(open.at(-1)?.agent).toBe("billing");
  });

  it("folds an agent's sub-runs and collapses spans", () => {
    expect(visibleRows("p", indexes, { ...none, expandedSubRuns: new Set(["c"]), foldedAgents: new Set(["billing"]) }, "triage")).toHaveLength(4);
    expect(visibleRows("p", indexes, { ...none, collapsed: new Set(["p/s2"]) }, "triage").map((r) => r.key)).toEqual(["p/s1", "p/s2"]);
  });

  it("keeps only matches and their ancestors while searching, even below collapsed rows", () => {
    const rows = visibleRows("p", indexes, { ...none, collapsed: new Set(["p/s1"]), expandedSubRuns: new Set(["c"]), search: "ledger_bal" }, "triage");
    expect(rows.map((r) => r.key)).toEqual(["p/s1", "p/s2", "p/s4", "c/s1", "c/s2"]);
    expect(rows.filter((r) => r.matched).map((r) => r.key)).toEqual(["c/s2"]);
  });
});
