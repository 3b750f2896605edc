// Online evaluation on the real engine (issue 40 §2), SQLite and PostgreSQL: an
// evaluator scores a graph's new runs once its delay has passed (not before),
// decides its sample from the run id (a re-claim decides the same), skips runs
// past its daily cap, backfills a past range without touching runs already
// scored, waits for a conversation to close, adds low scores to a dataset by
// rule once, runs a guardrail check an admin offers on an MCP server, and two
// claimers on one evaluator never claim a run twice.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { saveAgentVersion } from "../../lib/agents/repository";
import { createDataset } from "../../lib/datasets/server/store";
import { createEvaluatorInput, inSample, type CreateEvaluatorInput } from "../../lib/online-eval/schemas";
import { createEvaluator, deleteEvaluator, startBackfill, updateEvaluator, type EvaluatorDeps } from "../../lib/online-eval/server/store";
import { claimDueEvaluations } from "../../lib/online-eval/claim";
import { recordScores } from "../../lib/online-eval/record";
import { backfillWorkflowId, evaluatorWorkflowId } from "../../lib/online-eval/temporal";

const providers = await testProviders();

describe.each(providers)("online evaluation on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let builder: { id: string };
  let live: EvaluatorDeps;
  /** No Temporal: the test drives the claims itself. */
  let manual: EvaluatorDeps;

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ database: await create() });
    builder = await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" }, select: { id: true } });
    live = { db: h.db, temporal: h.client, taskQueue: h.taskQueue };
    manual = { db: h.db, temporal: null, taskQueue: h.taskQueue };
  });
  afterAll(async () => {
    if (!available) return;
    // Evaluator and backfill workflows live until their evaluator goes: end them before the worker stops, so its
    // shutdown waits on no pass in flight (in a fresh-clone run the PostgreSQL harness's stop outlasted 300 s with
    // these tests' evaluators still looping).
    const evaluators = await h.db.onlineEvaluator.findMany({ select: { id: true, backfills: { select: { id: true } } } });
    const workflowIds = evaluators.flatMap((e) => [evaluatorWorkflowId(e.id), ...e.backfills.map((b) => backfillWorkflowId(b.id))]);
    await Promise.all(workflowIds.map((id) => h.client.workflow.getHandle(id).terminate("test over").catch(() => undefined)));
    await h.stop();
  });

  async function graph(): Promise<string> {
    const name = `oe-${randomUUID().slice(0, 8)}`;
    await saveAgentVersion(h.db, name, { entryAgent: "main", agents: [{ name: "main", model: "demo/test", tools: [] }], limits: { followUpWindowSeconds: 0 } }, { createdById: builder.id, note: "v1" });
    return name;
  }

  const evaluator = (deps: EvaluatorDeps, input: Omit<CreateEvaluatorInput, "name">) => createEvaluator(deps, createEvaluatorInput.parse({ name: `ev-${randomUUID().slice(0, 8)}`, ...input }), builder);

  /** A finished root run of the graph written straight to the ledger's table (an ended time of the test's choosing). */
  async function endedRun(graphName: string, endedAt: Date, output = "refund issued", extra: { status?: string } = {}): Promise<string> {
    const id = `run-${randomUUID()}`;
    await h.db.run.create({ data: { id, rootRunId: id, agentName: "main", graphName, task: "please refund", status: extra.status ?? "completed", output, startedAt: new Date(endedAt.getTime() - 1000), endedAt } });
    return id;
  }

  it.skipIf(!available)("scores new runs once their delay has passed, and not before; the workflow ends when the evaluator is deleted", async () => {
    const name = await graph();
    const ev = await evaluator(live, {
      graph: name,
      delaySeconds: 4,
      checks: [
        { source: "scorer", scorer: { kind: "contains", text: "refund" } },
        { source: "guardrail", name: "no-cards", on: "output", check: { type: "pii", detectors: ["card"] } },
      ],
    });
    const started = await Promise.all([h.engine.startRun({ graphName: name, task: "answer: refund issued" }), h.engine.startRun({ graphName: name, task: "answer: card 4111 1111 1111 1111" })]);
    for (const { runId } of started) await waitForStatus(h.engine, runId, ["completed"]);
    const ended = await h.db.run.findMany({ where: { id: { in: started.map((s) => s.runId) } }, select: { id: true, endedAt: true } });
    const lastEnd = Math.max(...ended.map((r) => r.endedAt?.getTime() ?? 0));
    // Within the delay nothing is claimed (the loop has passed several times by now).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastEnd + 2_500 - Date.now())));
    if (Date.now() < lastEnd + 4_000) expect(await h.db.onlineEvaluation.count({ where: { evaluatorId: ev.id } }), "claimed before the delay passed").toBe(0);
    const rows = await eventually(() => h.db.onlineEvaluation.findMany({ where: { evaluatorId: ev.id }, include: { scores: true } }), (r) => r.length === 2 && r.every((e) => e.status === "scored"), 30_000, "both runs scored");
    for (const row of rows) {
      expect(row.claimedAt.getTime() - row.runEndedAt.getTime(), "claimed only after the delay").toBeGreaterThanOrEqual(4_000);
      expect(row.source).toBe("live");
    }
    const byRun = new Map(rows.map((r) => [r.runId, Object.fromEntries(r.scores.map((s) => [s.scorer, s.value]))]));
    expect(byRun.get(started[0]?.runId ?? "")).toEqual({ contains: 1, "guardrail:no-cards": 1 });
    expect(byRun.get(started[1]?.runId ?? "")).toEqual({ contains: 0, "guardrail:no-cards": 0 });
    expect(rows.find((r) => r.runId === started[1]?.runId)?.meanScore).toBe(0);
    // The score lands on the run's own span too, where the trace shows it.
    for (const [i, mean] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const [runSpan] = await h.engine.getTrace(started[i]?.runId ?? "");
      expect(runSpan?.kind).toBe("run");
      expect(runSpan?.attributes?.[`onlineScore:${ev.name}`], `run ${i}'s span`).toBe(mean);
    }

    await deleteEvaluator(live, ev.id, builder);
    await eventually(async () => (await h.client.workflow.getHandle(evaluatorWorkflowId(ev.id)).describe()).status.name, (status) => status === "COMPLETED", 20_000, "the evaluator's workflow to end");
  });

  it.skipIf(!available)("decides its sample from the run id: a re-claim decides the same runs", async () => {
    const name = await graph();
    const ev = await evaluator(manual, { graph: name, samplingRate: 0.5, checks: [{ source: "scorer", scorer: { kind: "exact" } }] });
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push(await endedRun(name, new Date(Date.now() + i)));
    const decide = async () => {
      await claimDueEvaluations(h.db, ev.id, null, new Date(Date.now() + 60_000));
      const rows = await h.db.onlineEvaluation.findMany({ where: { evaluatorId: ev.id }, select: { runId: true, status: true } });
      return new Map(rows.map((r) => [r.runId, r.status]));
    };
    const first = await decide();
    expect(first.size).toBe(24);
    const expected = new Map(ids.map((id) => [id, inSample(ev.id, id, 0.5) ? "pending" : "skipped_sampling"]));
    expect(first).toEqual(expected);
    expect([...first.values()].filter((s) => s === "pending").length, "about half in the sample").toBeGreaterThan(3);
    expect(await decide(), "a second pass changes nothing").toEqual(first);
    await h.db.onlineEvaluation.deleteMany({ where: { evaluatorId: ev.id } });
    expect(await decide(), "claimed afresh, the same runs are in the sample").toEqual(first);
  });

  it.skipIf(!available)("skips the runs past today's spend cap, recorded as skipped_cap", async () => {
    const name = await graph();
    const ev = await evaluator(manual, { graph: name, dailySpendCapUsd: 0.01, checks: [{ source: "scorer", scorer: { kind: "judge", rubric: "mentions 'refund'" } }] });
    const spentOn = await endedRun(name, new Date());
    await claimDueEvaluations(h.db, ev.id, null, new Date(Date.now() + 60_000));
    const claimed = await h.db.onlineEvaluation.findUniqueOrThrow({ where: { evaluatorId_runId: { evaluatorId: ev.id, runId: spentOn } } });
    expect(claimed.status, "under the cap").toBe("pending");
    await recordScores(h.db, claimed, [{ scorer: "judge", value: 1, pass: true, detail: "ok", costUsd: 0.02 }]);
    const later = [await endedRun(name, new Date(Date.now() + 1)), await endedRun(name, new Date(Date.now() + 2))];
    await claimDueEvaluations(h.db, ev.id, null, new Date(Date.now() + 60_000));
    const rows = await h.db.onlineEvaluation.findMany({ where: { evaluatorId: ev.id, runId: { in: later } } });
    expect(rows.map((r) => r.status)).toEqual(["skipped_cap", "skipped_cap"]);
  });

  it.skipIf(!available)("backfills yesterday: the older runs scored once, a run already scored left as it was, a second backfill claims nothing", async () => {
    const name = await graph();
    const ev = await evaluator(live, { graph: name, enabled: false, checks: [{ source: "scorer", scorer: { kind: "contains", text: "refund" } }] });
    const yesterday = Date.now() - 24 * 3600_000;
    const old = [await endedRun(name, new Date(yesterday)), await endedRun(name, new Date(yesterday + 1_000), "no idea"), await endedRun(name, new Date(yesterday + 2_000))];
    const outside = await endedRun(name, new Date(yesterday - 3 * 3600_000));
    // The third was scored before the backfill (by hand here), with a score the backfill must not replace.
    const before = await h.db.onlineEvaluation.create({ data: { id: `oee_${randomUUID().replaceAll("-", "")}`, evaluatorId: ev.id, runId: old[2] ?? "", graph: name, status: "pending", runEndedAt: new Date(yesterday + 2_000) } });
    await recordScores(h.db, before, [{ scorer: "contains", value: 0.5, pass: null, detail: "by hand", costUsd: 0 }]);
    const range = { id: ev.id, from: new Date(yesterday - 3600_000).toISOString(), to: new Date(yesterday + 3600_000).toISOString() };
    const backfill = await startBackfill(live, range, builder);
    const done = await eventually(() => h.db.onlineEvaluationBackfill.findUniqueOrThrow({ where: { id: backfill.id } }), (b) => b.status === "done", 30_000, "the backfill to finish");
    expect(done.claimed, "two runs claimed by the backfill").toBe(2);
    const rows = await h.db.onlineEvaluation.findMany({ where: { evaluatorId: ev.id }, include: { scores: true }, orderBy: { runEndedAt: "asc" } });
    expect(rows.map((r) => [r.runId, r.status, r.source, r.scores.map((s) => s.value)])).toEqual([
      [old[0], "scored", backfill.id, [1]],
      [old[1], "scored", backfill.id, [0]],
      [old[2], "scored", "live", [0.5]],
    ]);
    expect(rows.some((r) => r.runId === outside), "a run outside the range is left alone").toBe(false);
    const again = await startBackfill(live, range, builder);
    const second = await eventually(() => h.db.onlineEvaluationBackfill.findUniqueOrThrow({ where: { id: again.id } }), (b) => b.status === "done", 30_000, "the second backfill to finish");
    expect(second.claimed).toBe(0);
    expect(await h.db.onlineEvaluationScore.count({ where: { evaluatorId: ev.id } })).toBe(3);
  });

  it.skipIf(!available)("a conversation evaluator waits for the conversation to close", async () => {
    const name = await graph();
    const ev = await evaluator(manual, { graph: name, target: "conversation", checks: [{ source: "scorer", scorer: { kind: "exact" } }] });
    const runId = await endedRun(name, new Date());
    const openedAt = new Date();
    await h.db.runSpan.create({ data: { runId, spanId: "root", parentId: null, kind: "run", name: "main", status: "running", startedAt: openedAt, endedAt: null } });
    const later = new Date(Date.now() + 60_000);
    const open = await claimDueEvaluations(h.db, ev.id, null, later);
    expect(open.state === "active" && open.claimed, "not claimed while the conversation is open").toBe(0);
    await h.db.runSpan.update({ where: { runId_spanId: { runId, spanId: "root" } }, data: { endedAt: new Date(), status: "ok" } });
    const closed = await claimDueEvaluations(h.db, ev.id, open.state === "active" ? open.cursor : null, later);
    expect(closed.state === "active" && closed.claimed, "claimed once it closed").toBe(1);
  });

  it.skipIf(!available)("a conversation left open does not hold the scan: the runs after it are claimed and passed, it waits and is claimed once closed", async () => {
    const name = await graph();
    const ev = await evaluator(manual, { graph: name, target: "conversation", checks: [{ source: "scorer", scorer: { kind: "exact" } }] });
    const start = Date.now();
    const open = await endedRun(name, new Date(start));
    const after = [await endedRun(name, new Date(start + 1)), await endedRun(name, new Date(start + 2))];
    await h.db.runSpan.create({ data: { runId: open, spanId: "root", parentId: null, kind: "run", name: "main", status: "running", startedAt: new Date(start), endedAt: null } });
    for (const runId of after) await h.db.runSpan.create({ data: { runId, spanId: "root", parentId: null, kind: "run", name: "main", status: "ok", startedAt: new Date(start), endedAt: new Date(start + 3) } });
    const later = new Date(Date.now() + 60_000);
    const first = await claimDueEvaluations(h.db, ev.id, null, later);
    if (first.state !== "active") throw new Error(`evaluator ${first.state}`);
    expect(first.claimed, "the two closed conversations after the open one are claimed").toBe(2);
    // Before, the position stayed before the open conversation, however many runs after it were claimed.
    expect(first.cursor, "the position moved past the open conversation, which waits").toEqual({ endedAt: new Date(start + 2).toISOString(), runId: after[1], waiting: [open] });
    const still = await claimDueEvaluations(h.db, ev.id, first.cursor, later);
    expect(still.state === "active" && [still.claimed, still.cursor], "still open: nothing claimed, it keeps waiting").toEqual([0, first.cursor]);
    await h.db.runSpan.update({ where: { runId_spanId: { runId: open, spanId: "root" } }, data: { endedAt: new Date(), status: "ok" } });
    const closed = await claimDueEvaluations(h.db, ev.id, first.cursor, later);
    expect(closed.state === "active" && [closed.claimed, closed.cursor], "claimed once closed, and no longer waiting").toEqual([1, { endedAt: new Date(start + 2).toISOString(), runId: after[1] }]);
    expect(await h.db.onlineEvaluation.count({ where: { evaluatorId: ev.id } }), "each run claimed once").toBe(3);
  });

  it.skipIf(!available)("two claimers on one evaluator never claim a run twice, and two writers of one score write it once", async () => {
    const name = await graph();
    const ev = await evaluator(manual, { graph: name, checks: [{ source: "scorer", scorer: { kind: "exact" } }] });
    for (let i = 0; i < 40; i++) await endedRun(name, new Date(Date.now() + i));
    const now = new Date(Date.now() + 60_000);
    const passes = await Promise.all([claimDueEvaluations(h.db, ev.id, null, now), claimDueEvaluations(h.db, ev.id, null, now), claimDueEvaluations(h.db, ev.id, null, now)]);
    const claimedByPasses = passes.reduce((sum, p) => sum + (p.state === "active" ? p.claimed : 0), 0);
    const rows = await h.db.onlineEvaluation.findMany({ where: { evaluatorId: ev.id } });
    expect(rows.length).toBe(40);
    expect(claimedByPasses, "every insert counted once across the claimers").toBe(40);
    const [row] = rows;
    if (!row) throw new Error("no row");
    const score = [{ scorer: "exact", value: 1, pass: true, detail: "same", costUsd: 0 }];
    const writes = await Promise.all([recordScores(h.db, row, score), recordScores(h.db, row, score)]);
    expect(writes.filter(Boolean), "exactly one writer applied").toHaveLength(1);
    expect(await h.db.onlineEvaluationScore.count({ where: { evaluationId: row.id } })).toBe(1);
  });

  it.skipIf(!available)("runs a guardrail check an admin offers on an MCP server (kb__screen_text) on live answers; a tool not offered as a check is refused when saved", async () => {
    const name = await graph();
    const refusal = await evaluator(live, { graph: name, checks: [{ source: "guardrail", name: "tickets", on: "output", check: { type: "custom", check: "kb__create_ticket" } }] }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ status: 422, issues: [{ path: "checks.0.check.check", message: expect.stringMatching(/does not offer "create_ticket" as a guardrail check \(offered: screen_text\)/) }] });
    const ev = await evaluator(live, { graph: name, checks: [{ source: "guardrail", name: "screen", on: "output", check: { type: "custom", check: "kb__screen_text" } }] });
    const started = await Promise.all([h.engine.startRun({ graphName: name, task: "answer: the refund policy is 30 days" }), h.engine.startRun({ graphName: name, task: "answer: this is internal only" })]);
    for (const { runId } of started) await waitForStatus(h.engine, runId, ["completed"]);
    const rows = await eventually(() => h.db.onlineEvaluation.findMany({ where: { evaluatorId: ev.id }, include: { scores: true } }), (r) => r.length === 2 && r.every((e) => e.status === "scored"), 30_000, "both runs scored");
    const byRun = new Map(rows.map((r) => [r.runId, r.scores.map((s) => ({ scorer: s.scorer, value: s.value }))]));
    expect(byRun.get(started[0]?.runId ?? "")).toEqual([{ scorer: "guardrail:screen", value: 1 }]);
    expect(byRun.get(started[1]?.runId ?? "")).toEqual([{ scorer: "guardrail:screen", value: 0 }]);
    await updateEvaluator(live, { id: ev.id, enabled: false }, builder);
  });

  it.skipIf(!available)("adds a low-scored run to the dataset by rule, once", async () => {
    const name = await graph();
    const datasetName = `low-${randomUUID().slice(0, 8)}`;
    await createDataset(builder, { name: datasetName }, h.db);
    const ev = await evaluator(live, { graph: name, datasetRule: { dataset: datasetName, below: 0.5 }, checks: [{ source: "scorer", scorer: { kind: "contains", text: "refund" } }] });
    const good = await h.engine.startRun({ graphName: name, task: "answer: refund issued" });
    const bad = await h.engine.startRun({ graphName: name, task: "answer: no idea" });
    for (const { runId } of [good, bad]) await waitForStatus(h.engine, runId, ["completed"]);
    await eventually(() => h.db.onlineEvaluation.findMany({ where: { evaluatorId: ev.id } }), (r) => r.length === 2 && r.every((e) => e.status === "scored"), 30_000, "both scored");
    const dataset = await h.db.dataset.findUniqueOrThrow({ where: { name: datasetName } });
    const items = await eventually(async () => h.db.datasetItemRow.findMany({ where: { datasetId: dataset.id } }), (r) => r.length >= 1, 20_000, "the low-scored run added");
    expect(items).toHaveLength(1);
    expect(items[0]?.data).toContain(bad.runId);
    await updateEvaluator(live, { id: ev.id, enabled: false }, builder);
  });
});
