// The compare read on runs the engine executed (SQLite and PostgreSQL): two
// runs of one graph with the same task whose ledger_balance call answered
// differently (the balance moved between them) diverge at that call and nowhere else; a run with one more tool
// call shows the inserted steps with the rest aligned; the route refuses an
// unknown run (404 naming it), runs of different graphs and unknown
// parameters (422); "Compare with…" offers the other runs of the graph.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../../scripts/test-support/engine-harness";
import { testProviders } from "../../../scripts/test-support/databases";
import { doors } from "../../../scripts/test-support/parity-doors";
import { apiRequest, params, routeOutcome } from "../../../scripts/test-support/parity";
import type { CompareCandidates, CompareStepsPage, RunComparison } from "../diff/schemas";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../../scripts/test-support/parity-doors")).configModule);

const compareRoute = await import("@/app/api/runs/compare/route");
const candidatesRoute = await import("@/app/api/runs/compare/candidates/route");
const stepsRoute = await import("@/app/api/runs/compare/steps/route");
const providers = await testProviders();

// ledger_balance, not current_time: the time differs between two runs by construction, and the comparison
// leaves timestamps out (normalise.ts), so only a balance that moved between the runs is a real difference.
const SCRIPT = 'tool calculator {"expression":"6*7"}\ntool ledger_balance {"account":"refunds"}\nanswer: done';
const LONGER = 'tool calculator {"expression":"6*7"}\ntool calculator {"expression":"1+1"}\ntool ledger_balance {"account":"refunds"}\nanswer: done';

async function steps(query: string) {
  return routeOutcome(await stepsRoute.GET(apiRequest("GET", `/api/runs/compare/steps?${query}`), params({})));
}

async function compare(query: string) {
  return routeOutcome(await compareRoute.GET(apiRequest("GET", `/api/runs/compare?${query}`), params({})));
}

describe.each(providers)("comparing runs on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let first: string;
  let second: string;
  let longer: string;
  let otherGraph: string;

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ database: await create() });
    doors.db = h.db;
    doors.config = h.config;
    doors.userId = (await h.db.user.findUniqueOrThrow({ where: { email: "viewer@zap.local" } })).id;
    const graph = singleAgentGraph({ name: "main", model: "demo/test", tools: ["calculator", "ledger_balance"] });
    ({ runId: first } = await h.engine.startRun({ graph, task: SCRIPT }));
    await waitForStatus(h.engine, first, ["completed"]);
    // Money moves between the first run and the others: their balance reads answer differently.
    await h.db.ledgerAccount.update({ where: { id: "refunds" }, data: { balanceCents: { increment: 12_345 } } });
    ({ runId: second } = await h.engine.startRun({ graph, task: SCRIPT }));
    ({ runId: longer } = await h.engine.startRun({ graph, task: LONGER }));
    ({ runId: otherGraph } = await h.engine.startRun({ graph: singleAgentGraph({ name: "other", model: "demo/test" }), task: "answer: hi" }));
    await Promise.all([second, longer, otherGraph].map((id) => waitForStatus(h.engine, id, ["completed"])));
  });
  afterAll(async () => h?.stop());

  it.skipIf(!available)("two runs of one task diverge exactly at the tool call that answered differently", async () => {
    const outcome = await compare(`a=${first}&b=${second}`);
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    const result = (outcome as { data: RunComparison }).data;
    const kinds = result.rows.map((r) => `${result.a.steps[r.a!]!.kind}:${result.a.steps[r.a!]!.name}:${r.status}`);
    expect(kinds).toEqual(["task::equal", "model_call::equal", "tool_call:calculator:equal", "model_call::equal", "tool_call:ledger_balance:changed", "model_call::equal", "final::equal"]);
    expect(result.firstDivergence).toBe(4);
    expect(result.rows[4]!.changed).toEqual(["result"]);
    expect(result.counts).toEqual({ equal: 6, changed: 1, onlyA: 0, onlyB: 0 });
    // Figures from the ledger: the demo model's tokens, free of charge, and both runs' durations.
    expect(result.a.totals.tokens.inputTokens).toBeGreaterThan(0);
    expect(result.a.totals.cost).toBe(0);
    expect(result.delta.tokens).toBe(result.b.totals.tokens.inputTokens + result.b.totals.tokens.outputTokens - (result.a.totals.tokens.inputTokens + result.a.totals.tokens.outputTokens));
    expect(result.delta.latencyMs).toBe(result.b.totals.latencyMs! - result.a.totals.latencyMs!);
    expect(result.a.steps.find((s) => s?.kind === "tool_call")!.spanId).toMatch(/^s\d+$/);
    expect(result.a.replayedSteps).toBe(0);
  });

  it.skipIf(!available)("each step's duration is its span's, as the trace shows it (issue 37 §1: 24 ms in the trace, 4 ms here)", async () => {
    const result = ((await compare(`a=${first}&b=${second}`)) as { data: RunComparison }).data;
    const spans = await h.db.runSpan.findMany({ where: { runId: first, kind: { in: ["inference", "tool"] } }, select: { spanId: true, startedAt: true, endedAt: true } });
    const traced = new Map(spans.map((s) => [s.spanId, (s.endedAt?.getTime() ?? Number.NaN) - s.startedAt.getTime()]));
    const timed = result.a.steps.filter((s) => s !== null && s.spanId !== null && (s.kind === "model_call" || s.kind === "tool_call"));
    expect(timed.length, "three model calls and two tool calls").toBe(5);
    for (const step of timed) expect(step?.latencyMs, `${step?.kind} ${step?.spanId}`).toBe(traced.get(step?.spanId ?? ""));
    const events = await h.db.runEvent.findMany({ where: { runId: first, type: "inference_completed" }, orderBy: { seq: "asc" }, select: { data: true } });
    const inferenceSpans = spans.filter((s) => timed.some((t) => t?.kind === "model_call" && t.spanId === s.spanId));
    expect(events.map((e) => (JSON.parse(e.data) as { latencyMs: number }).latencyMs).sort(), "the API's events carry the same duration").toEqual(inferenceSpans.map((s) => traced.get(s.spanId)).sort());
  });

  it.skipIf(!available)("a run with one more tool call: the inserted steps are only in B, the rest stays aligned", async () => {
    const result = ((await compare(`a=${first}&b=${longer}`)) as { data: RunComparison }).data;
    // The task differs; the model call proposing the second calculation and that call are only in B; the same balance read answered differently.
    expect(result.rows.map((r) => r.status)).toEqual(["changed", "equal", "equal", "only_b", "only_b", "equal", "changed", "equal", "equal"]);
    expect(result.b.steps[result.rows[4]!.b!]).toMatchObject({ kind: "tool_call", name: "calculator", fields: { arguments: '{"expression":"1+1"}' } });
    expect(result.firstDivergence).toBe(0);
    expect(result.counts).toMatchObject({ onlyA: 0, onlyB: 2 });
  });

  it.skipIf(!available)("refuses an unknown run naming it, runs of different graphs, and unknown parameters", async () => {
    expect(await compare(`a=${first}&b=nope-123`)).toMatchObject({ ok: false, status: 404, error: { message: 'There is no run "nope-123" (parameter b)' } });
    expect(await compare(`a=${first}&b=${otherGraph}`)).toMatchObject({ ok: false, status: 422, error: { message: `Runs ${first} and ${otherGraph} are of different graphs (inline graph of main, inline graph of other)` } });
    const extra = await compare(`a=${first}&b=${second}&c=1`);
    expect(extra).toMatchObject({ ok: false, status: 422 });
    expect(JSON.stringify(extra)).toContain("c");
    expect(await compare(`a=${first}`)).toMatchObject({ ok: false, status: 422 });
  });

  it.skipIf(!available)("reads a run's steps by the comparison's indices; refuses a stale version, a bad range and an unknown run", async () => {
    const result = ((await compare(`a=${first}&b=${longer}`)) as { data: RunComparison }).data;
    const page = ((await steps(`run=${longer}&from=2&to=500&version=${result.b.version}`)) as { data: CompareStepsPage }).data;
    // The same steps the comparison carried (a small comparison carries them all), from index 2 on.
    expect(page).toMatchObject({ runId: longer, version: result.b.version, total: result.b.steps.length, from: 2 });
    expect(page.steps).toEqual(result.b.steps.slice(2));
    expect(page.steps[0]).not.toHaveProperty("seq");
    expect(await steps(`run=${longer}&from=0&to=3&version=1.2`)).toMatchObject({ ok: false, status: 409, error: { message: `Run ${longer} has taken more steps since the comparison was made (version 1.2, now ${result.b.version}); reload the comparison` } });
    expect(await steps(`run=${longer}&from=5&to=5`)).toMatchObject({ ok: false, status: 422 });
    expect(await steps(`run=${longer}&from=0&to=501`)).toMatchObject({ ok: false, status: 422 });
    expect(await steps(`run=${longer}&from=-1&to=3`)).toMatchObject({ ok: false, status: 422 });
    expect(await steps(`run=${longer}&from=0&to=3&x=1`)).toMatchObject({ ok: false, status: 422 });
    expect(await steps(`run=nope-2&from=0&to=3`)).toMatchObject({ ok: false, status: 404 });
  });

  it.skipIf(!available)("offers the other runs of the same graph to compare with, newest first", async () => {
    const outcome = await routeOutcome(await candidatesRoute.GET(apiRequest("GET", `/api/runs/compare/candidates?run=${first}`), params({})));
    const found = (outcome as { data: CompareCandidates }).data;
    expect(found.related).toEqual([]);
    expect(found.recent.map((r) => r.runId).sort()).toEqual([second, longer].sort());
    expect(await routeOutcome(await candidatesRoute.GET(apiRequest("GET", "/api/runs/compare/candidates?run=nope-1"), params({})))).toMatchObject({ ok: false, status: 404 });
  });
});
