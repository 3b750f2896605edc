// Spend limits (issue 39 §3) on real Temporal, SQLite and PostgreSQL, driven
// through the HTTP routes and server actions: a run's tokens, priced by the
// price book (demo/test priced through ZAP_MODEL_PRICES), count toward its
// graph, its starter and the API key it was started with; once a limit is
// reached the next start of that scope is refused through every door (route and
// action: 402, one line naming the limit; an experiment, a playground call and a
// fork alike, nothing written) and other scopes still start;
// removing or raising the limit lets runs start again; each change is audited;
// a schedule's firing is refused and recorded like any other start; the
// monitors' spend_limit_used series reads a reached limit and a monitor on it fires.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testProviders } from "../../scripts/test-support/databases";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import { saveAgentVersion } from "../agents/repository";
import { withApiKey } from "../audit/context";
import { createApiKey } from "../api-keys/server/api-keys";
import { fireSchedule } from "../schedules/fire";
import { monitorSeriesReader } from "../monitors/series";
import { evaluateMonitors } from "../monitors/evaluate";
import { createMonitor } from "../monitors/server/store";
import { seriesValue } from "../metrics/server/series-value";
import { highestSpendShare } from "./server/share";
import type { SpendLimitView } from "./schemas";
import { applyChange } from "../datasets/server/store";
import { readSpans } from "../run-ledger/read";
import { scaledWait } from "../../scripts/test-support/wait-scale";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);
// The experiment and playground doors name the web server's Temporal client; a refused start never uses it.
const temporal = vi.hoisted(() => ({ client: null as unknown }));
vi.mock("@/lib/temporal/server/client", () => ({ getTemporalClient: () => temporal.client }));

const limitsRoute = await import("@/app/api/spend-limits/route");
const limitRoute = await import("@/app/api/spend-limits/[limitId]/route");
const runsRoute = await import("@/app/api/runs/route");
const experimentsRoute = await import("@/app/api/experiments/route");
const playgroundRoute = await import("@/app/api/playground/call/route");
const forkRoute = await import("@/app/api/runs/[runId]/fork/route");
const { startRunAction } = await import("../actions/start-run");
const { setSpendLimitAction } = await import("../actions/set-spend-limit");

const providers = await testProviders();
const GRAPH = "spend-capped";
const OTHER = "spend-free";

describe.each(providers)("spend limits on $provider", ({ available, create }) => {
  let h: EngineHarness;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    if (!available) return;
    // A dollar per token: any run's spend passes a $1 limit.
    h = await startEngineHarness({ database: await create(), env: { ZAP_MODEL_PRICES: "demo/test=1000000/1000000" } });
    doors.db = h.db;
    doors.config = h.config;
    doors.engine = h.engine;
    temporal.client = h.client;
    for (const role of ["admin", "builder", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
    for (const name of [GRAPH, OTHER]) await saveAgentVersion(h.db, name, singleAgentGraph({ name: "main" }), { createdById: ids.builder ?? null });
  }, scaledWait(120_000));

  afterAll(async () => {
    if (available) await h.stop();
  });

  const as = (role: string) => {
    doors.userId = ids[role] ?? null;
  };
  const start = async (graph: string): Promise<Outcome> => routeOutcome(await runsRoute.POST(apiRequest("POST", "/api/runs", { graph, task: "answer: done" }), params({})));
  const ran = async (graph: string): Promise<string> => {
    const outcome = await start(graph);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    const runId = (outcome as { data: { runId: string } }).data.runId;
    await waitForStatus(h.engine, runId, ["completed"], 60_000);
    return runId;
  };
  const setLimit = async (body: Record<string, unknown>): Promise<Outcome> => routeOutcome(await limitsRoute.POST(apiRequest("POST", "/api/spend-limits", body), params({})), "limit");
  const limits = async (): Promise<SpendLimitView[]> => {
    const listed = await routeOutcome(await limitsRoute.GET(apiRequest("GET", "/api/spend-limits"), params({})), "limits");
    expect(listed.ok).toBe(true);
    return (listed as { data: SpendLimitView[] }).data;
  };
  const removeLimit = async (id: string) => routeOutcome(await limitRoute.DELETE(apiRequest("DELETE", `/api/spend-limits/${id}`), params({ limitId: id })));

  it.skipIf(!available)("a graph's daily limit, once spent, refuses its next run through the route and the action alike; another graph still runs; removing it lets runs start", async () => {
    as("builder");
    await ran(GRAPH);
    const set = await setLimit({ scope: "graph", scopeId: GRAPH, period: "day", amountUsd: 1 });
    expect(set, JSON.stringify(set)).toMatchObject({ ok: true, data: { scope: "graph", scopeId: GRAPH, period: "day", amountUsd: 1, reached: true } });
    const view = (set as { data: SpendLimitView }).data;
    expect(view.spend.pricedUsd, "the run's tokens, a dollar each").toBeGreaterThanOrEqual(1);
    expect(view.spend.unpricedTokens).toBe(0);

    const refused = await start(GRAPH);
    expect(refused).toMatchObject({ ok: false, status: 402, error: { code: "spend_limit_reached" } });
    const message = (refused as { error: { message: string } }).error.message;
    expect(message).toMatch(/^Spend limit reached: \$[\d,.]+ spent of the daily spend limit of graph "spend-capped" \(\$1\.00\); new runs are refused until \d{4}-\d\d-\d\d 00:00 UTC or an admin raises the limit\.$/);
    const viaAction = actionOutcome(await startRunAction({ graph: GRAPH, task: "answer: done" }));
    expect(viaAction, "the dialog's action refuses the same way").toEqual(refused);
    expect(await h.db.run.count({ where: { graphName: GRAPH } }), "no run row for a refused start").toBe(1);

    await ran(OTHER);

    // The monitors' spend series reads the graph's limit as reached (a share of 1 or more), and a monitor on it fires.
    const readSeries = monitorSeriesReader(seriesValue, undefined, highestSpendShare);
    expect(await readSeries(h.db, { series: "spend_limit_used", windowMinutes: 5, filters: { graph: GRAPH } })).toBeGreaterThanOrEqual(1);
    expect(await readSeries(h.db, { series: "spend_limit_used", windowMinutes: 5, filters: { graph: OTHER } }), "a graph without a limit: nothing to measure").toBeNull();
    await createMonitor(h.db, { name: `Spend of ${GRAPH}`, series: "spend_limit_used", comparator: "gte", threshold: 0.8, windowMinutes: 5, filters: { graph: GRAPH } }, { id: ids.builder ?? "" });
    const tick = await evaluateMonitors(h.db, { readSeries, webhookConfigured: false });
    expect(tick).toMatchObject({ fired: 1, failed: [] });

    const raised = actionOutcome(await setSpendLimitAction({ scope: "graph", scopeId: GRAPH, period: "day", amountUsd: 1_000_000 }));
    expect(raised, "the action sets the same limit (raised)").toMatchObject({ ok: true, data: { id: view.id, amountUsd: 1_000_000, reached: false } });
    await ran(GRAPH);
    await setLimit({ scope: "graph", scopeId: GRAPH, period: "day", amountUsd: 1 });
    expect(await start(GRAPH)).toMatchObject({ ok: false, status: 402 });
    expect(await removeLimit(view.id)).toEqual({ ok: true, data: { removed: view.id } });
    await ran(GRAPH);

    const rows = await h.db.auditEvent.findMany({ where: { target: view.id }, orderBy: { seq: "asc" } });
    expect(rows.map((row) => [row.action, row.actorId])).toEqual([
      ["spend_limit.set", ids.builder],
      ["spend_limit.set", ids.builder],
      ["spend_limit.set", ids.builder],
      ["spend_limit.removed", ids.builder],
    ]);
    expect(JSON.parse(rows[1]?.details ?? "{}")).toMatchObject({ scope: "graph", scopeId: GRAPH, period: "day", amountUsd: 1_000_000, previousUsd: 1 });
  }, scaledWait(240_000));

  it.skipIf(!available)("a user's monthly limit (set by an admin) refuses that user's runs of any graph and no one else's", async () => {
    as("admin");
    const set = await setLimit({ scope: "user", scopeId: ids.builder, period: "month", amountUsd: 1 });
    expect(set).toMatchObject({ ok: true, data: { scope: "user", scopeLabel: "builder@zap.local", reached: true } });
    as("builder");
    expect(await start(OTHER)).toMatchObject({ ok: false, status: 402, error: { message: expect.stringContaining("monthly spend limit of user builder@zap.local ($1.00)") } });
    as("admin");
    await ran(OTHER);
    expect(await removeLimit((set as { data: SpendLimitView }).data.id)).toMatchObject({ ok: true });
  }, scaledWait(120_000));

  it.skipIf(!available)("an API key's limit counts the runs started with it and refuses the next one with it; the same user without the key still starts runs", async () => {
    as("admin");
    const builder = { id: ids.builder ?? "", role: "builder" as const };
    const { key } = await createApiKey(builder, { name: "ci", role: "builder" }, h.db);
    const set = await setLimit({ scope: "api_key", scopeId: key.id, period: "day", amountUsd: 1 });
    expect(set).toMatchObject({ ok: true, data: { scopeLabel: "ci", reached: false, spend: { pricedUsd: 0 } } });
    as("builder");
    const withKey = <T>(work: () => Promise<T>) => withApiKey({ apiKeyId: key.id, actorId: builder.id }, work);
    const first = await withKey(() => start(OTHER));
    expect(first, JSON.stringify(first)).toMatchObject({ ok: true });
    await waitForStatus(h.engine, (first as { data: { runId: string } }).data.runId, ["completed"], 60_000);
    const [listed] = (await limits()).filter((limit) => limit.scope === "api_key");
    expect(listed?.spend.pricedUsd, "the key's run counts toward it").toBeGreaterThanOrEqual(1);
    expect(listed?.reached).toBe(true);
    expect(await withKey(() => start(OTHER))).toMatchObject({ ok: false, status: 402, error: { message: expect.stringContaining('spend limit of API key "ci"') } });
    await ran(OTHER);
  }, scaledWait(120_000));

  it.skipIf(!available)("a schedule's firing past the workspace's limit starts no run: it is recorded as refused with the sentence, and audited", async () => {
    as("admin");
    const set = await setLimit({ scope: "workspace", period: "month", amountUsd: 0 });
    expect(set).toMatchObject({ ok: true, data: { scope: "workspace", scopeLabel: "Workspace", reached: true } });
    const schedule = await h.db.schedule.create({ data: { id: "sch_spendlimittest01", name: "capped nightly", graphName: OTHER, intervalSeconds: 3600, task: "answer: done", ownerId: ids.builder ?? "" } });
    const fired = await fireSchedule({ db: h.db, engine: h.engine }, { scheduleId: schedule.id, firingId: "firing-spend-1" });
    expect(fired).toMatchObject({ kind: "refused", reason: expect.stringContaining("the run could not start: Spend limit reached: $") });
    expect(fired.kind === "refused" && fired.reason).toContain("monthly spend limit of the workspace ($0)");
    const row = await h.db.schedule.findUniqueOrThrow({ where: { id: schedule.id } });
    expect(row.lastOutcome).toBe("refused");
    expect(await h.db.run.count({ where: { scheduleId: schedule.id } })).toBe(0);
    expect(await h.db.auditEvent.count({ where: { action: "schedule.fire_refused", target: schedule.id } })).toBe(1);
    expect(await removeLimit((set as { data: SpendLimitView }).data.id)).toMatchObject({ ok: true });
  }, scaledWait(60_000));

  it.skipIf(!available)("a user over their limit starts no experiment, playground call or fork either: the same 402 line as a run start, nothing written", async () => {
    as("builder");
    const origin = await ran(OTHER);
    const spanId = (await readSpans(h.db, origin)).find((span) => span.kind === "inference")?.id ?? "";
    const builder = { id: ids.builder ?? "", email: "builder@zap.local" };
    const datasetName = `ds-spend-${Date.now()}`;
    await applyChange(builder, { newDataset: { name: datasetName } }, { add: [{ input: { task: "answer: done", context: {} }, expected: {}, tape: [], tags: [], source: {} }], note: "one item", action: "dataset.items_added" }, h.db);
    as("admin");
    const set = await setLimit({ scope: "user", scopeId: ids.builder, period: "month", amountUsd: 1 });
    expect(set).toMatchObject({ ok: true, data: { reached: true } });
    as("builder");
    const runStart = await start(OTHER);
    expect(runStart).toMatchObject({ ok: false, status: 402, error: { code: "spend_limit_reached" } });
    const before = { experiments: await h.db.experiment.count(), runs: await h.db.run.count(), audit: await h.db.auditEvent.count() };

    const experiment = await routeOutcome(await experimentsRoute.POST(apiRequest("POST", "/api/experiments", { dataset: datasetName, targets: [{ graph: OTHER, version: 1 }], scorers: [{ kind: "exact" }] }), params({})));
    const playground = await routeOutcome(await playgroundRoute.POST(apiRequest("POST", "/api/playground/call", { runId: origin, spanId, model: "demo/test", temperature: 0, maxOutputTokens: 100, messages: [{ role: "user", content: "answer: done" }] }), params({})));
    const fork = await routeOutcome(await forkRoute.POST(apiRequest("POST", `/api/runs/${origin}/fork`, { spanId }), params({ runId: origin })));
    for (const [door, refused] of Object.entries({ experiment, playground, fork })) expect(refused, `${door}: the run start's refusal, word for word`).toEqual(runStart);
    expect(await h.db.experiment.count(), "no experiment row").toBe(before.experiments);
    expect(await h.db.run.count(), "no run row (the fork's)").toBe(before.runs);
    expect(await h.db.auditEvent.count(), "no audit row: nothing was started or called").toBe(before.audit);
    expect(await h.db.runTape.count({ where: { purpose: "fork" } }), "no fork tape").toBe(0);
    as("admin");
    expect(await removeLimit((set as { data: SpendLimitView }).data.id)).toMatchObject({ ok: true });
  }, scaledWait(120_000));

  it.skipIf(!available)("bad input is answered 422 naming the field, a missing graph too; nothing is saved", async () => {
    as("admin");
    const before = await h.db.spendLimit.count();
    expect(await setLimit({ scope: "graph", scopeId: "no-such-graph", period: "day", amountUsd: 1 })).toMatchObject({ ok: false, status: 422, error: { issues: [{ path: "scopeId" }] } });
    expect(await setLimit({ scope: "workspace", period: "week", amountUsd: 1 })).toMatchObject({ ok: false, status: 422, error: { issues: [{ path: "period" }] } });
    expect(await setLimit({ scope: "workspace", period: "day", amountUsd: -3 })).toMatchObject({ ok: false, status: 422, error: { issues: [{ path: "amountUsd" }] } });
    expect(await h.db.spendLimit.count()).toBe(before);
  }, scaledWait(60_000));
});
