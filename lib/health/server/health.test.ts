// GET /api/health's report, with the database and Temporal stood in for: how far
// the derived rows trail the ledger is information in it (`derived`), never a
// reason to call the system degraded, and null when the database cannot say.
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/prisma";

const QUEUED_AT = new Date(Date.now() - 3_000);

/** What the fake database answers; each test sets its own. */
const answers = {
  databaseUp: true,
  queued: 0,
  queueReadFails: false,
};

const fakeDb = {
  $queryRawUnsafe: async () => {
    if (!answers.databaseUp) throw new Error("connection refused");
    return [{ "?column?": 1 }];
  },
  deriveQueueItem: {
    count: async () => {
      if (answers.queueReadFails) throw new Error("no such table: ledger_derive_queue");
      return answers.queued;
    },
    findFirst: async () => (answers.queued > 0 ? { at: QUEUED_AT } : null),
  },
} as unknown as Db;

vi.mock("../../db/server/db", () => ({ getDb: () => fakeDb }));
vi.mock("../../telemetry/stats-store", () => ({ readExportStats: async () => null }));
vi.mock("../../config/server/config", () => ({
  getConfig: () => ({ databaseProvider: "sqlite", temporal: { namespace: "default", taskQueue: "zap-test" } }),
}));
vi.mock("../../temporal/server/client", () => ({
  getTemporalConnection: () => ({
    withDeadline: <T>(_deadline: number, call: () => Promise<T>) => call(),
    healthService: { check: async () => ({ status: 1 }) },
    workflowService: { describeTaskQueue: async () => ({ pollers: [{ identity: "worker-1" }] }) },
  }),
}));

const { checkHealth } = await import("./health");

describe("the health report's derived rows", () => {
  beforeEach(() => {
    Object.assign(answers, { databaseUp: true, queued: 0, queueReadFails: false });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
  });

  it("says nothing waits when the deriver has caught up", async () => {
    const report = await checkHealth();
    expect(report.status).toBe("ok");
    expect(report.derived).toEqual({ queued: 0, lagMs: 0 });
  });

  it("reports the queued ledger writes and the oldest one's age, and stays ok", async () => {
    answers.queued = 4;
    const report = await checkHealth();
    expect(report.status, "a lag is information, not a failure").toBe("ok");
    expect(report.derived?.queued).toBe(4);
    expect(report.derived?.lagMs, "at least the oldest write's age").toBeGreaterThanOrEqual(3_000);
    expect(report.workers.pollers).toBe(1);
  });

  it("is null, and the report still answers, when the queue cannot be read", async () => {
    answers.queueReadFails = true;
    const report = await checkHealth();
    expect(report.status).toBe("ok");
    expect(report.derived).toBeNull();
  });

  it("is null when the database is unreachable (the report is degraded for that, not for the lag)", async () => {
    answers.databaseUp = false;
    answers.queued = 2;
    const report = await checkHealth();
    expect(report.status).toBe("degraded");
    expect(report.database.ok).toBe(false);
    expect(report.derived).toBeNull();
  });
});
