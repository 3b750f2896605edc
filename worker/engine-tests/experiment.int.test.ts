// Experiments on the real engine (Temporal dev server, worker, SQLite and
// PostgreSQL): a dataset on two versions of a graph scores as expected, with
// the version that lost a tool regressing; replayed side effects never move the
// demo bank; gated calls never reach the inbox; cancel stops the item runs; and
// the start refuses what it cannot run, naming the problem.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEngineHarness, eventually, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { AppError } from "../../lib/errors";
import { readRunRows } from "../../lib/run-ledger/read";
import { experimentWorkflowId } from "../../lib/experiments/workflow-contract";
import { builder, dataset, item, resultRows, start, tapeCall, twoVersionGraph, waitForExperiment, type Builder } from "./experiment-fixtures";

const providers = await testProviders();

// The providers side by side (each its own harness); a provider's tests in order (sequential): the first compares
// the whole bank before and after.
describe.concurrent.each(providers)("experiments ($provider)", ({ available, create }) => {
  let h: EngineHarness;
  let user: Builder;
  let graph: string;

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ database: await create() });
    user = await builder(h);
    graph = await twoVersionGraph(h, user);
  });
  afterAll(async () => {
    if (available) await h.stop();
  });

  it.skipIf(!available).sequential("scores every item on both versions; the version without the calculator regresses; the bank and the inbox are untouched", async () => {
    const order = (id: string) => `{"order_id":"${id}","status":"taped-${id}"}`;
    const transfer = { from_account: "savings", to_account: "operating", amount: 7 };
    const items = [
      item('tool lookup_order {"order_id":"A-1"}', { output: order("A-1"), tape: [tapeCall("lookup_order", { order_id: "A-1" }, order("A-1"))], trajectory: [{ tool: "lookup_order", arguments: { order_id: "A-1" } }] }),
      // Not recorded: the calculator runs live (allowed, side-effect free) on v1; v2 has no calculator.
      item('tool calculator {"expression":"6*7"}', { output: "42", trajectory: [{ tool: "calculator", arguments: { expression: "6*7" } }] }),
      // Recorded: the transfer is replayed, never executed.
      item(`tool ledger_transfer ${JSON.stringify(transfer)}\nanswer: moved`, { output: "moved", tape: [tapeCall("ledger_transfer", transfer, '{"status":"completed","amount":7}')], trajectory: [{ tool: "ledger_transfer", arguments: transfer }] }),
      // Not recorded, gated, not allowed live: rejected by the experiment's policy, never an inbox item.
      item('tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":999}\nanswer: tried', { output: "tried" }),
    ];
    const name = await dataset(h, user, items);
    const entriesBefore = await h.db.ledgerEntry.count();
    const balancesBefore = await h.db.ledgerAccount.findMany({ orderBy: { id: "asc" } });

    const { experimentId, total } = await start(h, user, {
      dataset: name,
      targets: [
        { graph, version: 1 },
        { graph, version: 2 },
      ],
      scorers: [{ kind: "contains" }, { kind: "trajectory", order: "strict", arguments: "exact" }],
      thresholds: { contains: 0.9 },
      concurrency: 3,
      liveTools: ["calculator"],
    });
    expect(total).toBe(8);
    await waitForExperiment(h, experimentId, ["completed"]);
    const rows = await resultRows(h, experimentId);
    expect(rows.map((r) => r.status)).toEqual(Array(8).fill("scored"));
    const outputs = await h.db.run.findMany({ where: { experimentId }, select: { id: true, output: true } });
    const seen = JSON.stringify(rows.map((r) => ({ position: r.position, target: r.targetIndex, output: outputs.find((o) => o.id === r.runId)?.output })));
    const contains = (position: number, targetIndex: number) => rows.find((r) => r.position === position && r.targetIndex === targetIndex)?.scores.find((s) => s.scorer === "contains")?.value;
    const [p1, p2, p3, p4] = [...new Set(rows.map((r) => r.position))];
    // v1 answers from the tape and the live calculator; v2 has no calculator, so that item regresses.
    expect([contains(p1!, 0), contains(p2!, 0), contains(p3!, 0), contains(p4!, 0)], seen).toEqual([1, 1, 1, 1]);
    expect([contains(p2!, 1), contains(p3!, 1), contains(p4!, 1)], seen).toEqual([0, 1, 1]);
    const replayed = rows.find((r) => r.position === p1 && r.targetIndex === 0)?.scores.find((s) => s.scorer === "trajectory:strict/exact");
    expect(replayed?.pass, replayed?.detail).toBe(true);
    const trajectory = rows.find((r) => r.position === p3 && r.targetIndex === 0)?.scores.find((s) => s.scorer === "trajectory:strict/exact");
    expect(trajectory?.pass, trajectory?.detail).toBe(true);

    // Every unit ran as a normal run carrying its experiment, one run per unit.
    const runs = await h.db.run.findMany({ where: { experimentId, parentRunId: null }, select: { id: true, status: true } });
    expect(runs.map((r) => r.id).sort()).toEqual(rows.map((r) => r.runId).sort());
    // The runs list leaves them out unless asked.
    const listed = await readRunRows(h.db, { topLevel: true, hideExperimentRuns: true }, { take: 1_000 });
    expect(listed.rows.filter((r) => r.experimentId === experimentId)).toEqual([]);
    // The demo bank did not move: the recorded transfer was replayed, the unrecorded one refused.
    expect(await h.db.ledgerEntry.count()).toBe(entriesBefore);
    expect(await h.db.ledgerAccount.findMany({ orderBy: { id: "asc" } })).toEqual(balancesBefore);
    expect(await h.db.toolExecution.count({ where: { runId: { in: runs.map((r) => r.id) } } })).toBe(0);
    // No gated call reached the inbox.
    expect(await h.db.approvalRecord.count({ where: { runId: { in: runs.map((r) => r.id) }, status: "pending" } })).toBe(0);
    const pending = await h.engine.listPendingApprovals();
    expect(pending.filter((a) => runs.some((r) => r.id === a.runId))).toEqual([]);
  });

  it.skipIf(!available).sequential("continues as new every few units and still scores each unit once", async () => {
    const name = await dataset(h, user, Array.from({ length: 5 }, (_, i) => item(`answer: n${i}`, { output: `n${i}` })));
    const { experimentId } = await start(h, user, { dataset: name, targets: [{ graph, version: 1 }], scorers: [{ kind: "exact" }], concurrency: 2 }, { unitsPerExecution: 2 });
    await waitForExperiment(h, experimentId, ["completed"]);
    expect((await resultRows(h, experimentId)).map((r) => `${r.status}:${r.scores[0]?.value}`)).toEqual(Array(5).fill("scored:1"));
    // The last execution (the fifth unit) was continued from an earlier one.
    const history = await h.client.workflow.getHandle(experimentWorkflowId(experimentId)).fetchHistory();
    expect(history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId).toBeTruthy();
    expect(await h.db.run.count({ where: { experimentId } })).toBe(5);
  });

  it.skipIf(!available).sequential("cancel stops the experiment and the item runs in flight", async () => {
    const items = Array.from({ length: 6 }, (_, i) => item(`think 15000\nanswer: slow ${i}`, { output: `slow ${i}` }));
    const name = await dataset(h, user, items);
    const { experimentId } = await start(h, user, { dataset: name, targets: [{ graph, version: 1 }], scorers: [{ kind: "exact" }], concurrency: 2 });
    const running = await eventually(() => h.db.experimentResult.findMany({ where: { experimentId, status: "running" } }), (rows) => rows.length === 2, 30_000, "two units in flight");
    await h.client.workflow.getHandle(experimentWorkflowId(experimentId)).cancel();
    const result: unknown = await h.client.workflow.getHandle(experimentWorkflowId(experimentId)).result();
    expect(result).toMatchObject({ status: "cancelled" });
    expect((await h.db.experiment.findUniqueOrThrow({ where: { id: experimentId } })).status).toBe("cancelled");
    // The units in flight cancelled their runs; no unit after them was started.
    for (const unit of running) await eventually(() => h.db.run.findUniqueOrThrow({ where: { id: unit.runId! } }), (run) => run.status === "cancelled", 20_000, `run ${unit.runId} cancelled`);
    expect(await h.db.run.count({ where: { experimentId } })).toBe(2);
    expect(await h.db.experimentResult.count({ where: { experimentId, status: "pending" } })).toBe(4);
  });

  it.skipIf(!available).sequential("refuses a version failing validation, a dataset with 0 items and a side-effecting live tool, naming each", async () => {
    const name = await dataset(h, user, [item("answer: hi", { output: "hi" })]);
    const refusal = async (run: () => Promise<unknown>) => {
      const error = await run().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    };
    // A version saved before a rule it now breaks (written as stored, not through the designer's checks).
    const agent = await h.db.agent.findUniqueOrThrow({ where: { name: graph } });
    await h.db.agentVersion.create({ data: { agentId: agent.id, version: 3, graph: JSON.stringify({ entryAgent: "ghost", agents: [{ name: "main", model: "demo/test" }] }), note: "broken" } });
    const broken = await refusal(() => start(h, user, { dataset: name, targets: [{ graph, version: 1 }, { graph, version: 3 }], scorers: [{ kind: "exact" }] }));
    expect(broken.status).toBe(422);
    expect(broken.userMessage).toMatch(new RegExp(`^${graph} version 3 fails validation: .*ghost`));

    const empty = await refusal(async () => start(h, user, { dataset: await dataset(h, user, []), targets: [{ graph, version: 1 }], scorers: [{ kind: "exact" }] }));
    expect(empty.status).toBe(422);
    expect(empty.userMessage).toMatch(/has 0 items/);

    const live = await refusal(() => start(h, user, { dataset: name, targets: [{ graph, version: 1 }], scorers: [{ kind: "exact" }], liveTools: ["calculator", "ledger_transfer"] }));
    expect(live.status).toBe(422);
    expect(live.issues).toEqual([{ path: "liveTools[1]", message: '"ledger_transfer" has side effects and may not run live in an experiment' }]);

    const unknown = await refusal(() => start(h, user, { dataset: "no-such-dataset", targets: [{ graph, version: 1 }], scorers: [{ kind: "exact" }] }));
    expect(unknown.status).toBe(404);
    const noVersion = await refusal(() => start(h, user, { dataset: name, targets: [{ graph, version: 9 }], scorers: [{ kind: "exact" }] }));
    expect(noVersion.userMessage).toBe(`The saved agent "${graph}" has no version 9`);
    // Nothing was stored for any refusal.
    expect(await h.db.experiment.count({ where: { datasetName: name } })).toBe(0);
  });
});
