// Several processes writing one database at once — the web server and the
// worker on the default SQLite file, or any number of them on PostgreSQL. Two
// child processes and this one each run tens of concurrent write transactions
// (ledger transfers through writeTransaction, read-then-write increments, agent
// saves racing for version numbers) plus single-statement writes; every one
// must succeed and the totals must come out exact.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "./prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import {
  actualTotals,
  expectedTotals,
  prepareWorkload,
  runWriteWorkload,
  type WorkloadReport,
  type WorkloadSpec,
} from "../../scripts/test-support/concurrent-writes";

const providers = await testProviders();
const WRITER = path.join(import.meta.dirname, "../../scripts/test-support/concurrent-writer.ts");
const PROCESSES = 3;
const spec: WorkloadSpec = { transfers: 50, sharedTransfers: 10, singleWrites: 25, readModifyWrites: 10, agentSaves: 8 };

interface Writer {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  report: Promise<WorkloadReport>;
}

/** Starts a writer process and resolves `ready` once it has connected, `report` with its JSON result. */
function startWriter(url: string, label: string): Writer {
  const child = spawn(process.execPath, ["--import", "tsx", WRITER, url, label, JSON.stringify(spec)], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const report = new Promise<WorkloadReport>((resolve, reject) => {
    lines.on("line", (line) => {
      if (line === "ready") markReady();
      else if (line.startsWith("{")) resolve(JSON.parse(line) as WorkloadReport);
    });
    child.on("exit", (code) => reject(new Error(`writer ${label} exited with ${code} before reporting:\n${stderr}`)));
  });
  return { child, ready: Promise.race([ready, report.then(() => undefined)]), report };
}

/** Failures grouped by message (numbers blanked), most frequent first. */
function errorKinds(reports: WorkloadReport[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const e of reports.flatMap((r) => r.errors)) {
    const kind = e.replace(/\b\d+\b/g, "N").slice(0, 120);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]));
}

describe.each(providers)("concurrent writes from several processes on $provider", ({ available, create }) => {
  let database: TestDatabase | undefined;
  let db: Db | undefined;

  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  it.skipIf(!available)(
    `${PROCESSES} processes × (${spec.transfers} transfers + ${spec.sharedTransfers} shared + ${spec.singleWrites}×2 single writes + ${spec.readModifyWrites} read-modify-writes + ${spec.agentSaves} agent saves): no errors, exact totals`,
    async () => {
      database = await create();
      await applyMigrations(database.url);
      db = createDb(database.url);
      await prepareWorkload(db);

      const writers = [startWriter(database.url, "child-1"), startWriter(database.url, "child-2")];
      await Promise.all(writers.map((w) => w.ready));
      const started = performance.now();
      for (const w of writers) w.child.stdin.write("go\n");
      const reports = await Promise.all([runWriteWorkload(db, "parent", spec), ...writers.map((w) => w.report)]);
      const wallMs = Math.round(performance.now() - started);
      for (const w of writers) w.child.stdin.end();

      console.log(
        `[concurrent writes, ${database.provider}] ${wallMs} ms wall; ` +
          reports.map((r) => `${r.label}: ${r.operations} ops in ${r.durationMs} ms, ${r.errors.length} errors, stats ${JSON.stringify(r.stats)}`).join("; "),
      );
      const errors = reports.flatMap((r) => r.errors.map((e) => `${r.label}: ${e}`));
      if (errors.length) console.log(`[concurrent writes, ${database.provider}] failures by kind:`, errorKinds(reports));
      expect(errors.slice(0, 10), `${errors.length} operations failed (first 10 shown)`).toEqual([]);

      const expected = expectedTotals(PROCESSES, spec);
      const actual = await actualTotals(db);
      expect(actual.balances, "every account moved by exactly the transfers that ran").toEqual(expected.balances);
      expect(Object.values(actual.balances).reduce((a, b) => a + b, 0), "money is conserved").toBe(
        Object.values(expected.balances).reduce((a, b) => a + b, 0),
      );
      expect(actual.ledgerEntries, "one ledger entry per idempotency key").toBe(expected.ledgerEntries);
      expect(actual.toolExecutions, "one execution record per idempotency key").toBe(expected.toolExecutions);
      expect(actual.auditEvents, "every single-statement insert landed once").toBe(expected.auditEvents);
      expect(actual.counter, "every single-statement increment landed once").toBe(expected.counter);
      expect(actual.readModifyWrites, "no read-then-write increment was lost").toBe(expected.readModifyWrites);
      expect(actual.agentVersions, "agent versions are dense and unique").toEqual(expected.agentVersions);
    },
    180_000,
  );
});
