// Issue 36 §2: edited history never passes for recorded in a dataset, from any
// source, on the real engine (SQLite and PostgreSQL), through both doors.
// "Add from approvals" took a call decided in an edited fork's tree as if it
// were recorded behaviour; "Add to dataset" took an experiment run that played
// an imported tape's edited model output (only edited tool events and a fork
// row's mark were checked, and only below the chosen run). Now the first is left
// out, the answer naming it and why (a 422 when nothing is left), and the second
// is refused, naming the step, its run, who wrote it and when.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../../scripts/test-support/engine-harness";
import { testProviders } from "../../../scripts/test-support/databases";
import { doors } from "../../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../../scripts/test-support/parity";
import type { SessionUser } from "../../auth/server/session";
import type { Role } from "../../access/roles";
import type { ApprovalsAdded, DatasetChange } from "../schemas";
import type { TapeEntry } from "../../tapes/schemas";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../../scripts/test-support/parity-doors")).cacheModule);

const addRunsRoute = await import("@/app/api/datasets/add-runs/route");
const addApprovalsRoute = await import("@/app/api/datasets/add-approvals/route");
const { addRunsToDatasetAction } = await import("../../actions/add-runs-to-dataset");
const { addApprovalsToDatasetAction } = await import("../../actions/add-approvals-to-dataset");
const { importDatasetAction } = await import("../../actions/import-dataset");
const { decideOne } = await import("../../inbox/server/decide");
const { forkRunWith } = await import("../../forks/server/fork-run");
const { saveAgentVersion } = await import("../../agents/repository");
const { readSpans } = await import("../../run-ledger/read");
const { startExperiment } = await import("../../experiments/server/start");
const { startExperimentSchema } = await import("../../experiments/schemas");
const { readDatasetItems } = await import("./items");

const providers = await testProviders();

const dataOf = <T,>(outcome: Outcome) => {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  return (outcome as { data: T }).data;
};
const refusalOf = (outcome: Outcome) => {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(false);
  return outcome as Extract<Outcome, { ok: false }>;
};

describe.each(providers)("edited history in datasets on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let builder: SessionUser;
  let approver: SessionUser;
  const name = () => `ds-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    if (!available) return;
    // The calculator runs ungated; the payer's ledger_transfer waits for an approver.
    h = await startEngineHarness({ database: await create(), policy: { exemptTools: ["calculator"] } });
    doors.db = h.db;
    doors.config = h.config;
    const person = async (email: string): Promise<SessionUser> => {
      const u = await h.db.user.findUniqueOrThrow({ where: { email } });
      return { id: u.id, email: u.email, name: u.name, role: u.role as Role };
    };
    builder = await person("builder@zap.local");
    approver = await person("approver@zap.local");
    doors.userId = builder.id;
  });
  afterAll(async () => h?.stop());

  const pendingIn = (rootRunId: string) => eventually(() => h.db.approvalRecord.findFirst({ where: { rootRunId, status: "pending" } }), (r) => r !== null, 30_000, `an approval pending in ${rootRunId}`);
  const approveIn = async (rootRunId: string) => {
    const pending = (await pendingIn(rootRunId))!;
    await decideOne(h.engine, approver, { runId: pending.runId, approvalId: pending.id, approved: true });
    return pending;
  };

  it.skipIf(!available)("'Add from approvals' leaves out a call decided in an edited fork's sub-run, saying which and why; only such calls: 422, nothing stored", async () => {
    const graph = `edits-${randomUUID().slice(0, 8)}`;
    const agents = [
      { name: "lead", model: "demo/lead", tools: ["calculator"], subAgents: ["payer"] },
      { name: "payer", model: "demo/payer", tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer" }] },
    ];
    await saveAgentVersion(h.db, graph, { entryAgent: "lead", agents, limits: { followUpWindowSeconds: 0 } }, { createdById: builder.id });
    const task = `tool calculator {"expression":"2+2"}\nmessage payer: tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":13}\nanswer: lead done`;
    const { runId: origin } = await h.engine.startRun({ graphName: graph, task, startedBy: { id: builder.id, email: builder.email } });
    const recorded = await approveIn(origin);
    await waitForStatus(h.engine, origin, ["completed"], 60_000);

    // A builder writes the calculator's result into a fork; the payer, live after it, asks again and is approved.
    const calculator = (await readSpans(h.db, origin)).find((s) => s.kind === "tool" && s.name === "calculator");
    if (!calculator) throw new Error("the origin has no calculator call");
    const fork = await forkRunWith({ db: h.db, engine: h.engine }, { runId: origin, spanId: calculator.id, editedToolResult: "5" }, builder);
    const written = await approveIn(fork.runId);
    expect(written.runId, "the fork's call is its payer sub-run's").not.toBe(fork.runId);
    await waitForStatus(h.engine, fork.runId, ["completed"], 60_000);

    const approvalIds = [recorded.id, written.id];
    const byAction = await audited(h.db, async () => actionOutcome(await addApprovalsToDatasetAction({ newDataset: { name: name() }, approvalIds })));
    const byRoute = dataOf<ApprovalsAdded>(await routeOutcome(await addApprovalsRoute.POST(apiRequest("POST", "/api/datasets/add-approvals", { newDataset: { name: name() }, approvalIds }), params({}))));
    const added = dataOf<ApprovalsAdded>(byAction.outcome);
    expect({ added: added.added, itemCount: added.itemCount }, "only the recorded call became an item").toEqual({ added: 1, itemCount: 1 });
    expect(added.leftOut).toEqual([{ approvalId: written.id, runId: written.runId, reason: expect.stringContaining(`decided in run ${written.runId}, whose run tree holds an edited step (tool calculator, edited by ${builder.email} at `) as string }]);
    expect(added.leftOut[0]?.reason).toMatch(/at \d{4}-\d\d-\d\dT[^)]+\), not a recording$/);
    expect(byRoute.leftOut, "both doors answer alike").toEqual(added.leftOut);
    const items = (await readDatasetItems(h.db, { datasetId: added.datasetId })).items;
    expect(items.map((i) => i.source)).toEqual([{ runId: origin, approvalId: recorded.id }]);
    const audit = await h.db.auditEvent.findFirstOrThrow({ where: { action: "dataset.items_added", target: added.datasetId } });
    expect(JSON.parse(audit.details)).toMatchObject({ leftOut: [written.id] });
    expect(byAction.audit.map((r) => r.action)).toEqual(["dataset.created", "dataset.items_added"]);

    const onlyWritten = { newDataset: { name: name() }, approvalIds: [written.id] };
    const route = await routeOutcome(await addApprovalsRoute.POST(apiRequest("POST", "/api/datasets/add-approvals", onlyWritten), params({})));
    expectSameRefusal(route, actionOutcome(await addApprovalsToDatasetAction(onlyWritten)), "only a call from edited history");
    const refused = refusalOf(route);
    expect(refused.status).toBe(422);
    expect(refused.error.message).toContain(`Nothing was added: approval ${written.id} was decided in run ${written.runId}, whose run tree holds an edited step (tool calculator, edited by ${builder.email} at `);
    expect(refused.error.message).toContain("so it cannot become a dataset item");
    expect(await h.db.dataset.findUnique({ where: { name: onlyWritten.newDataset.name } }), "nothing was created").toBeNull();
  });

  it.skipIf(!available)("'Add to dataset' refuses an experiment run that played an imported tape's edited model output in a sub-run, naming the step, its run, who and when; the experiment's recorded-history scorer fails it the same way", async () => {
    const graph = `edits-exp-${randomUUID().slice(0, 8)}`;
    const agents = [
      { name: "lead", model: "demo/lead", subAgents: ["helper"] },
      { name: "helper", model: "demo/helper" },
    ];
    await saveAgentVersion(h.db, graph, { entryAgent: "lead", agents, limits: { followUpWindowSeconds: 0 } }, { createdById: builder.id });
    // An item someone exported elsewhere: the helper's first answer was written by a person, and says so.
    const writtenAt = "2026-03-04T05:06:07.000Z";
    const edited: TapeEntry = { kind: "model", path: ".helper#1", iteration: 1, response: { text: "written: all clear", toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, model: "demo/helper" }, edited: { by: "someone@example.com", at: writtenAt } };
    const line = JSON.stringify({ input: { task: "message helper: answer: helper done\nanswer: lead done", context: {} }, expected: { output: "lead done" }, tape: [edited], tags: [] });
    const dataset = dataOf<DatasetChange>(actionOutcome(await importDatasetAction({ newDataset: { name: name() }, format: "jsonl", content: line })));

    const { experimentId } = await startExperiment({ db: h.db, temporal: h.client, taskQueue: h.taskQueue }, startExperimentSchema.parse({ dataset: dataset.datasetId, targets: [{ graph, version: 1 }], scorers: [{ kind: "contains" }, { kind: "recorded" }] }), builder);
    await eventually(() => h.db.experiment.findUniqueOrThrow({ where: { id: experimentId } }), (e) => e.status === "completed", 90_000, `experiment ${experimentId} to complete`);
    const run = await h.db.run.findFirstOrThrow({ where: { experimentId, parentRunId: null } });
    const helper = await h.db.run.findFirstOrThrow({ where: { rootRunId: run.id, agentName: "helper" } });
    // The experiment says so too: its answer matched, and the recorded-history scorer names the written step.
    const result = await h.db.experimentResult.findFirstOrThrow({ where: { experimentId } });
    expect(JSON.parse(result.scores)).toEqual([
      expect.objectContaining({ scorer: "contains", pass: true }),
      { scorer: "recorded", value: 0, pass: false, detail: `1 edited step, not recordings: model output of inference demo/helper at iteration 1 in run ${helper.id} (edited by someone@example.com at ${writtenAt})` },
    ]);
    expect(run.forkEdit, "an experiment run is no fork: its row names no edit").toBeNull();
    const answers = (await h.engine.getEvents(helper.id)).filter((e) => e.type === "inference_completed");
    expect(answers[0], "the engine marked the written answer").toMatchObject({ edited: { by: "someone@example.com", at: writtenAt } });

    const body = { newDataset: { name: name() }, runIds: [run.id] };
    const route = await routeOutcome(await addRunsRoute.POST(apiRequest("POST", "/api/datasets/add-runs", body), params({})));
    expectSameRefusal(route, actionOutcome(await addRunsToDatasetAction(body)), "a run that played an edited model output");
    const refused = refusalOf(route);
    expect(refused.status).toBe(422);
    expect(refused.error.message).toBe(
      `Run ${run.id} holds an edited step (model output of inference demo/helper at iteration 1 in run ${helper.id}, edited by someone@example.com at ${writtenAt}), not a recording, so it cannot become a dataset item; add its origin run, or a run that recorded the step`,
    );
    // The helper's own run, chosen alone, is refused too, naming the step without a run.
    const alone = refusalOf(await routeOutcome(await addRunsRoute.POST(apiRequest("POST", "/api/datasets/add-runs", { newDataset: { name: name() }, runIds: [helper.id] }), params({}))));
    expect(alone.error.message).toContain(`Run ${helper.id} holds an edited step (model output of inference demo/helper at iteration 1, edited by someone@example.com at ${writtenAt})`);
    expect(await h.db.dataset.findUnique({ where: { name: body.newDataset.name } }), "nothing was created").toBeNull();
  });
});
