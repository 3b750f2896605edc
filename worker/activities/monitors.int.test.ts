// Monitors and alerts (issue 26 §1) on SQLite and PostgreSQL, through the
// evaluator's activities against a local webhook receiver: an approval waiting
// past the threshold fires one alert (audited, delivered signed), a breach that
// lasts keeps it without a second one, recovery resolves it (audited); a
// webhook that fails loses nothing (the alert is recorded, the delivery owed
// until accepted); evaluators racing on two connections insert one alert; a
// disabled monitor's alert resolves; a failure rate read from real ledger
// batches through the dashboard's rollups fires and resolves.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import { verifyWebhookSignature } from "../../lib/net/webhook-signature";
import { monitorSeriesReader } from "../../lib/monitors/series";
import { createMonitor, updateMonitor } from "../../lib/monitors/server/store";
import type { AlertNotification } from "../../lib/monitors/notification";
import { createMonitorActivities } from "./monitors";
import { writeLedgerGroup } from "../../lib/run-ledger/write";
import { toAlertView } from "../../lib/monitors/rows";
import type { LedgerBatch } from "../../lib/contract/workflow";
import type { RunEvent } from "../../lib/contract/types";

const SECRET = "monitor-webhook-secret-0123456789";
const actor = { id: "builder-1" };
const providers = await testProviders();

const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

interface Receiver {
  url: string;
  host: string;
  status: number;
  deliveries: { headers: IncomingMessage["headers"]; body: string }[];
}

async function receiver(): Promise<Receiver> {
  const r: Receiver = { url: "", host: "", status: 204, deliveries: [] };
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      r.deliveries.push({ headers: request.headers, body });
      response.writeHead(r.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  r.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  r.url = `http://${r.host}/hook`;
  return r;
}

/** The metrics rollups are not read here: every monitor in this file watches approvals. */
const noMetrics = async (): Promise<number | null> => {
  throw new Error("this test reads approvals only");
};

async function pendingApproval(db: Db, id: string, waitedMinutes: number, toolName = "ledger_transfer"): Promise<void> {
  const requestedAt = new Date(Date.now() - waitedMinutes * 60_000);
  await db.approvalRecord.create({
    data: { id, runId: `run-${id}`, rootRunId: `run-${id}`, agentName: "main", toolName, toolCallId: `call-${id}`, arguments: "{}", requestedAt, expiresAt: new Date(requestedAt.getTime() + 24 * 3_600_000) },
  });
}

async function open(url: string): Promise<Db> {
  const db = createDb(url);
  cleanup.push(() => db.$disconnect());
  return db;
}

/** A run of `graph` that started a minute ago and ended now with `end`, as the worker's ledger writer sends it. */
function runBatch(runId: string, graph: string, end: Extract<RunEvent, { type: "run_failed" | "run_completed" }> extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never): LedgerBatch {
  const now = Date.now();
  const events = [
    { type: "run_started", agentName: "main", task: "t", depth: 0, seq: 1, at: new Date(now - 60_000).toISOString() },
    { ...end, seq: 2, at: new Date(now).toISOString() },
  ] as RunEvent[];
  return {
    run: { runId, rootRunId: runId, parentRunId: null, agentName: "main", task: "t", context: {}, startedBy: "ann@zap.local", graphName: graph, agentVersionId: null },
    summary: { status: "thinking", iteration: 1, usage: { inputTokens: 0, outputTokens: 0 }, pendingApprovals: 0, lastEventSeq: 2, messageCount: 0, generation: 0, output: null, error: null, startedAt: new Date(now - 60_000).toISOString(), endedAt: null },
    events,
    spans: [],
    messages: [],
    approvals: [],
  };
}

const auditRows = (db: Db, action: string) => db.auditEvent.findMany({ where: { action }, orderBy: { seq: "asc" } });

describe.each(providers)("monitors on $provider", ({ provider, available, create }) => {
  let database: TestDatabase;
  let db: Db;

  it("an approval waiting past the threshold fires one alert, delivered signed; it stays while the breach lasts and resolves on recovery, even through a failing webhook", async (ctx) => {
    if (!available) return ctx.skip();
    database = await create();
    cleanup.push(() => database.drop());
    await applyMigrations(database.url);
    db = await open(database.url);
    await db.user.create({ data: { id: actor.id, email: "builder@monitors.test", name: "Bea", role: "builder" } });
    const hook = await receiver();
    const activities = createMonitorActivities({ db, webhook: { url: hook.url, secret: SECRET, allowHosts: [hook.host] }, readMonitorSeries: monitorSeriesReader(noMetrics) });

    const monitor = await createMonitor(db, { name: "Approvals waiting", series: "approvals_oldest_wait", comparator: "gt", threshold: 30 * 60_000, windowMinutes: 60 }, actor);
    expect((await auditRows(db, "monitor.created")).map((r) => r.target)).toEqual([monitor.id]);

    await pendingApproval(db, "ap-young", 5);
    const quiet = await activities.evaluateMonitors();
    expect(quiet, "5 minutes of waiting is under 30").toMatchObject({ evaluated: 1, fired: 0, resolved: 0, deliveries: [] });

    await pendingApproval(db, "ap-old", 45);
    const fired = await activities.evaluateMonitors();
    expect(fired).toMatchObject({ evaluated: 1, fired: 1, resolved: 0 });
    const alert = await db.monitorAlert.findFirstOrThrow({ where: { monitorId: monitor.id } });
    expect(alert).toMatchObject({ state: "firing", openKey: monitor.id, firedNotifiedAt: null });
    expect(alert.valueAtFire).toBeGreaterThan(45 * 60_000 - 5_000);
    expect(fired.deliveries).toEqual([{ alertId: alert.id, event: "alert.fired" }]);
    const firedAudit = await auditRows(db, "alert.fired");
    expect(firedAudit).toHaveLength(1);
    expect(firedAudit[0]).toMatchObject({ actorId: null, target: monitor.id });
    expect(JSON.parse(firedAudit[0]!.details)).toMatchObject({ alertId: alert.id, monitor: "Approvals waiting", comparator: "gt", threshold: 30 * 60_000 });

    expect(await activities.deliverAlertNotification(fired.deliveries[0]!)).toBe("sent");
    expect(hook.deliveries).toHaveLength(1);
    const delivery = hook.deliveries[0]!;
    expect(delivery.headers["x-zap-event"]).toBe("alert.fired");
    expect(delivery.headers["x-zap-delivery"]).toBe(`alert.fired:${alert.id}`);
    expect(verifyWebhookSignature(delivery.body, String(delivery.headers["x-zap-timestamp"]), String(delivery.headers["x-zap-signature"]), SECRET), "signed with the webhook secret").toBe(true);
    const body = JSON.parse(delivery.body) as AlertNotification;
    expect(body.alert).toMatchObject({ id: alert.id, monitorName: "Approvals waiting", state: "firing", runsHref: "/runs?awaitingApproval=1" });
    expect(body.text).toMatch(/^Alert: Approvals waiting is firing at 4\d(\.\d+)? min \(Oldest pending approval's wait &gt; 30 min over 60 min\)$/);
    expect((await db.monitorAlert.findUniqueOrThrow({ where: { id: alert.id } })).firedNotifiedAt, "the delivery is recorded").not.toBeNull();
    expect(await activities.deliverAlertNotification(fired.deliveries[0]!), "a retried delivery is not sent twice").toBe("not_owed");

    const still = await activities.evaluateMonitors();
    expect(still, "the breach lasts: no second alert, nothing owed").toMatchObject({ fired: 0, resolved: 0, deliveries: [] });
    expect(await db.monitorAlert.count({ where: { monitorId: monitor.id } })).toBe(1);

    // The approval is decided; the webhook is down when the alert resolves.
    await db.approvalRecord.update({ where: { id: "ap-old" }, data: { status: "approved", decidedAt: new Date() } });
    hook.status = 500;
    const resolved = await activities.evaluateMonitors();
    expect(resolved).toMatchObject({ fired: 0, resolved: 1, deliveries: [{ alertId: alert.id, event: "alert.resolved" }] });
    await expect(activities.deliverAlertNotification(resolved.deliveries[0]!)).rejects.toThrow(/webhook answered 500/);
    const afterFailure = await db.monitorAlert.findUniqueOrThrow({ where: { id: alert.id } });
    expect(afterFailure, "the resolution is recorded though the webhook failed").toMatchObject({ state: "resolved", openKey: null, resolvedReason: "recovered", resolvedNotifiedAt: null });
    expect(JSON.parse((await auditRows(db, "alert.resolved"))[0]!.details)).toMatchObject({ alertId: alert.id, reason: "recovered" });

    hook.status = 200;
    const retry = await activities.evaluateMonitors();
    expect(retry.deliveries, "the next tick owes the delivery still").toEqual([{ alertId: alert.id, event: "alert.resolved" }]);
    expect(await activities.deliverAlertNotification(retry.deliveries[0]!)).toBe("sent");
    expect(hook.deliveries.map((d) => d.headers["x-zap-event"])).toEqual(["alert.fired", "alert.resolved", "alert.resolved"]);
    expect(JSON.parse(hook.deliveries[2]!.body)).toMatchObject({ event: "alert.resolved", alert: { state: "resolved", resolvedReason: "recovered" } });
    expect((await activities.evaluateMonitors()).deliveries, "nothing owed once accepted").toEqual([]);
    expect(await auditRows(db, "alert.resolved")).toHaveLength(1);
  });

  it("a failure rate read from real ledger batches (the dashboard's rollups) fires above the threshold and resolves when completed runs bring it down", async (ctx) => {
    if (!available) return ctx.skip();
    const activities = createMonitorActivities({ db, webhook: null });
    const graph = `monitored-${provider}`;
    const monitor = await createMonitor(db, { name: `Failure rate of ${graph}`, series: "runs_failed", stat: "rate", comparator: "gt", threshold: 0.4, windowMinutes: 15, filters: { graph } }, actor);
    const step = async () => (await activities.evaluateMonitors()).failed;

    await writeLedgerGroup(db, [runBatch("rf-1", graph, { type: "run_failed", reason: "tool_error", message: "the tool broke" })]);
    expect(await step(), "the series reads").toEqual([]);
    const alert = await db.monitorAlert.findFirstOrThrow({ where: { monitorId: monitor.id } });
    expect(alert, "1 of 1 ended runs failed: 100 % > 40 %").toMatchObject({ state: "firing", valueAtFire: 1 });
    expect(toAlertView(alert).runsHref).toMatch(new RegExp(`^/runs\\?graph=${graph}&status=failed&from=`));

    await writeLedgerGroup(db, [runBatch("rc-1", graph, { type: "run_completed", output: "ok" }), runBatch("rc-2", graph, { type: "run_completed", output: "ok" })]);
    await step();
    const after = await db.monitorAlert.findUniqueOrThrow({ where: { id: alert.id } });
    expect(after.state, "1 of 3 failed: 33 % is not above 40 %").toBe("resolved");
    expect(after.lastValue).toBeCloseTo(1 / 3, 5);
  });

  it("evaluators racing on two connections fire one alert; disabling the monitor resolves it", async (ctx) => {
    if (!available) return ctx.skip();
    const second = await open(database.url);
    const reader = monitorSeriesReader(noMetrics);
    const evaluators = [db, second].map((client) => createMonitorActivities({ db: client, webhook: null, readMonitorSeries: reader }));
    const monitor = await createMonitor(db, { name: `Transfers waiting (${provider})`, series: "approvals_oldest_wait", comparator: "gte", threshold: 60_000, windowMinutes: 5, filters: { tool: "race_tool" } }, actor);
    await pendingApproval(db, "ap-race", 10, "race_tool");

    const ticks = await Promise.all([...evaluators, ...evaluators].map((e) => e.evaluateMonitors()));
    expect(ticks.reduce((sum, t) => sum + t.fired, 0), "one tick fired, the others saw its alert").toBe(1);
    expect(await db.monitorAlert.count({ where: { monitorId: monitor.id } })).toBe(1);
    const fired = (await auditRows(db, "alert.fired")).filter((r) => r.target === monitor.id);
    expect(fired).toHaveLength(1);
    expect(ticks.every((t) => t.deliveries.length === 0), "no webhook configured: nothing owed").toBe(true);

    await updateMonitor(db, monitor.id, { enabled: false }, actor);
    const alert = await db.monitorAlert.findFirstOrThrow({ where: { monitorId: monitor.id } });
    expect(alert).toMatchObject({ state: "resolved", resolvedReason: "monitor_disabled", openKey: null });
    const resolvedAudit = (await auditRows(db, "alert.resolved")).filter((r) => r.target === monitor.id);
    expect(resolvedAudit.map((r) => r.actorId), "resolved by the builder who disabled it").toEqual([actor.id]);
    const lastEvaluated = async () => (await db.monitor.findUniqueOrThrow({ where: { id: monitor.id } })).lastEvaluatedAt;
    const before = await lastEvaluated();
    await evaluators[0]!.evaluateMonitors();
    expect(await lastEvaluated(), "a disabled monitor is not evaluated").toEqual(before);
  });
});
