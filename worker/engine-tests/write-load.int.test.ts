// Concurrent writes from the web side and a worker process on one database:
// 100 runs wait for approval, two approvers decide all of them at once while
// 100 more runs make side-effecting transfers. Nothing may fail, and every
// decision and every transfer must be recorded exactly once.
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { startWorkerProcess, stopWorkerProcess } from "../../scripts/test-support/worker-process";
import { runWriteLoad, writeLoadProblems, type Approver } from "../../scripts/test-support/write-load";
import { scaledWait } from "../../scripts/test-support/wait-scale";

// The same burst on both providers. ZAP_WRITE_LOAD_RUNS lowers it for a quick local check.
const RUNS = Number(process.env.ZAP_WRITE_LOAD_RUNS ?? 100);
const providers = await testProviders();

describe.each(providers)("write load on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let worker: ChildProcess | undefined;
  beforeAll(async () => {
    if (!available) return;
    // The "free" runs transfer without a rule: the workspace policy exempts ledger_transfer here (the gated runs' own rule still applies).
    h = await startEngineHarness({ worker: false, database: await create(), policy: { exemptTools: ["ledger_transfer"] } });
    worker = await startWorkerProcess({ temporalAddress: h.config.temporal.address, taskQueue: h.taskQueue, databaseUrl: h.database.url, env: { ZAP_WORKFLOW_BUNDLE: inject("workflowBundlePath") } });
  });
  afterAll(async () => {
    if (worker) await stopWorkerProcess(worker);
    if (available) await h.stop();
  });

  it.skipIf(!available)(`${RUNS} concurrent decisions by two approvers while ${RUNS} transfers run: no error, each recorded once`, async () => {
    const approver = async (email: string): Promise<Approver> => {
      const u = await h.db.user.findUniqueOrThrow({ where: { email } });
      return { id: u.id, email: u.email, role: u.role };
    };
    const result = await runWriteLoad(h.engine, h.db, { runs: RUNS, approvers: [await approver("approver@zap.local"), await approver("admin@zap.local")] });
    expect(result.decisionLatenciesMs).toHaveLength(RUNS);
    expect(await writeLoadProblems(h.engine, h.db, result)).toEqual([]);
    expect(await h.db.ledgerEntry.count({ where: { runId: { in: [...result.gatedRunIds, ...result.freeRunIds] } } })).toBe(2 * RUNS);
  }, scaledWait(400_000));
});
