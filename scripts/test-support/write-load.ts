// The concurrent-write scenario shared by the write-load integration test and
// bench/write-load: N runs wait for approval of a ledger transfer; two
// approvers decide all of them at once through the engine client (the web
// side) while a worker process runs N more un-gated transfers, so the web
// side and the worker write the same database at the same moment.
import type { Db } from "../../lib/db/prisma";
import type { Engine } from "../../lib/engine/client";
import type { AgentGraphInput } from "../../lib/agents/schemas";
import type { RunSummary } from "../../lib/contract/types";

export interface Approver {
  id: string;
  email: string;
  role: string;
}

export interface WriteLoadResult {
  decisionLatenciesMs: number[];
  errors: string[];
  gatedRunIds: string[];
  freeRunIds: string[];
  wallMs: number;
}

const graph = (gated: boolean): AgentGraphInput => ({
  entryAgent: "main",
  agents: [
    {
      name: "main",
      model: "demo/load",
      tools: ["ledger_transfer"],
      approvalRules: gated ? [{ pattern: "ledger_transfer", requiredRole: "approver", expiresInSeconds: 3600 }] : [],
    },
  ],
  limits: { followUpWindowSeconds: 1 },
});

const transferTask = (i: number) => `tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":1,"memo":"load ${i}"}\nanswer: moved ${i}`;

async function pollAll(what: string, timeoutMs: number, check: () => Promise<string[]>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let missing: string[] = [];
  while (Date.now() < deadline) {
    missing = await check();
    if (missing.length === 0) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}: ${missing.length} not there (e.g. ${missing.slice(0, 3).join(", ")})`);
}

/** Starts `count` runs in parallel batches (the web side starting runs is not what is measured). */
async function startRuns(engine: Engine, count: number, gated: boolean, offset: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 25) {
    const batch = await Promise.all(Array.from({ length: Math.min(25, count - i) }, (_, k) => engine.startRun({ graph: graph(gated), task: transferTask(offset + i + k) })));
    ids.push(...batch.map((b) => b.runId));
  }
  return ids;
}

/** Runs the scenario; `decideSequentially` gives the uncontended baseline for the same number of decisions. */
export async function runWriteLoad(engine: Engine, db: Db, options: { runs: number; approvers: [Approver, Approver]; decideSequentially?: boolean }): Promise<WriteLoadResult> {
  const { runs, approvers } = options;
  const gatedRunIds = await startRuns(engine, runs, true, 0);
  await pollAll("every gated run to wait for approval", 120_000, async () => {
    const waiting = await db.approvalRecord.findMany({ where: { runId: { in: gatedRunIds }, status: "pending" }, select: { runId: true } });
    const have = new Set(waiting.map((w) => w.runId));
    return gatedRunIds.filter((id) => !have.has(id));
  });
  const pending = await db.approvalRecord.findMany({ where: { runId: { in: gatedRunIds } }, select: { id: true, runId: true } });

  const errors: string[] = [];
  const latencies: number[] = [];
  const started = performance.now();
  const decide = async (approval: { id: string; runId: string }, index: number) => {
    const t0 = performance.now();
    try {
      await engine.decideApproval(approval.runId, { approvalId: approval.id, approved: true, reason: "load test", decidedBy: approvers[index % 2]! });
      latencies.push(performance.now() - t0);
    } catch (error) {
      errors.push(`decide ${approval.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  let freeRunIds: string[] = [];
  if (options.decideSequentially) {
    for (const [i, approval] of pending.entries()) await decide(approval, i);
  } else {
    // The worker's own side effects run while the decisions arrive.
    const free = startRuns(engine, runs, false, runs).then((ids) => (freeRunIds = ids));
    await Promise.all([...pending.map((approval, i) => decide(approval, i)), free]);
  }

  const all = [...gatedRunIds, ...freeRunIds];
  await pollAll("every run to complete", 180_000, async () => {
    const rows = await db.run.findMany({ where: { id: { in: all } }, select: { id: true, status: true } });
    const done = new Set(rows.filter((r) => r.status === "completed").map((r) => r.id));
    const failed = rows.filter((r) => r.status === "failed" || r.status === "cancelled");
    if (failed.length) throw new Error(`runs ended ${failed[0]?.status}: ${failed.map((f) => f.id).slice(0, 3).join(", ")}`);
    return all.filter((id) => !done.has(id));
  });
  return { decisionLatenciesMs: latencies, errors, gatedRunIds, freeRunIds, wallMs: performance.now() - started };
}

/** What every run must show afterwards: one ledger entry each, one audit row per decision, no tool error. */
export async function writeLoadProblems(engine: Engine, db: Db, result: WriteLoadResult): Promise<string[]> {
  const problems = [...result.errors];
  const all = [...result.gatedRunIds, ...result.freeRunIds];
  const entries = await db.ledgerEntry.groupBy({ by: ["runId"], where: { runId: { in: all } }, _count: { _all: true } });
  const perRun = new Map(entries.map((e) => [e.runId, e._count._all]));
  for (const id of all) if (perRun.get(id) !== 1) problems.push(`run ${id}: ${perRun.get(id) ?? 0} ledger entries`);
  const targets = (await db.approvalRecord.findMany({ where: { runId: { in: result.gatedRunIds } }, select: { id: true, runId: true } })).map((a) => `${a.runId}/${a.id}`);
  const audits = await db.auditEvent.groupBy({ by: ["target"], where: { target: { in: targets }, action: "approval.approved" }, _count: { _all: true } });
  const perTarget = new Map(audits.map((a) => [a.target, a._count._all]));
  for (const target of targets) if (perTarget.get(target) !== 1) problems.push(`approval ${target}: ${perTarget.get(target) ?? 0} audit rows`);
  const summaries: RunSummary[] = await Promise.all(all.map((id) => engine.getRun(id)));
  for (const s of summaries) if (!s.output?.startsWith("moved ")) problems.push(`run ${s.runId}: output ${s.output}`);
  const toolErrors = await db.runEvent.count({ where: { runId: { in: all }, type: "error" } });
  if (toolErrors) problems.push(`${toolErrors} error events (a busy database must be retried, never shown to the model)`);
  return problems;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
