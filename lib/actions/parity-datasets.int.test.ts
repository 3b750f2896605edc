// Datasets through both doors (server action and route), on SQLite and
// PostgreSQL, from real demo runs: an item from a run tree carries its answer,
// its tool calls in order and every tool result as a tape entry with the
// approval decision that gated it; items from decided approvals (approved,
// edited, rejected); an import with a broken line refused by line; the same
// data, audit rows and refusals whichever door is used.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import type { SessionUser } from "../auth/server/session";
import type { Role } from "../access/roles";
import type { DatasetChange, DatasetItem, DecidedApproval } from "../datasets/schemas";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const addRunsRoute = await import("@/app/api/datasets/add-runs/route");
const addApprovalsRoute = await import("@/app/api/datasets/add-approvals/route");
const approvalsRoute = await import("@/app/api/datasets/approvals/route");
const importRoute = await import("@/app/api/datasets/import/route");
const { addRunsToDatasetAction } = await import("./add-runs-to-dataset");
const { addApprovalsToDatasetAction } = await import("./add-approvals-to-dataset");
const { importDatasetAction } = await import("./import-dataset");
const { decideOne } = await import("../inbox/server/decide");
const { readDatasetItems } = await import("../datasets/server/items");

const providers = await testProviders();

const dataOf = <T,>(outcome: Outcome) => {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  return (outcome as { data: T }).data;
};
const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount}}`;
/** An item without what differs between two copies of it (ids, positions). */
const blank = (item: DatasetItem) => ({ ...item, id: "<id>", position: 0 });

describe.each(providers)("datasets through both doors on $provider", ({ available, create }) => {
  let h: EngineHarness;
  const ids: Record<string, string> = {};
  let approver: SessionUser;
  const as = (role: string) => {
    doors.userId = ids[role] ?? null;
  };
  const name = () => `ds-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    if (!available) return;
    // The calculator runs ungated; ledger_transfer keeps the policy's approval.
    h = await startEngineHarness({ database: await create(), policy: { exemptTools: ["calculator"] } });
    doors.db = h.db;
    doors.config = h.config;
    for (const role of ["builder", "viewer", "approver"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
    const u = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    approver = { id: u.id, email: u.email, name: u.name, role: u.role as Role };
  });
  afterAll(async () => h?.stop());

  const pendingOf = (rootRunId: string) => eventually(() => h.db.approvalRecord.findFirst({ where: { rootRunId, status: "pending" } }), (r) => r !== null, 30_000, `an approval pending in ${rootRunId}`);
  const decide = async (rootRunId: string, decision: { approved: boolean; reason?: string; editedArguments?: Record<string, unknown> }) => {
    const pending = await pendingOf(rootRunId);
    await decideOne(h.engine, approver, { runId: pending!.runId, approvalId: pending!.id, ...decision });
    return pending!.id;
  };

  it.skipIf(!available)("an item from a finished run tree: answer, calls in order, every tool result taped with its decision", async () => {
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["payer"], tools: ["calculator"] },
        { name: "payer", model: "demo/payer", tools: ["ledger_transfer"] },
      ],
      limits: { followUpWindowSeconds: 0 },
    };
    const { runId } = await h.engine.startRun({ graph, task: `tool calculator {"expression":"6*7"}\nmessage payer: ${transfer(6)}\nanswer: lead done`, context: { customer: 7 } });
    await decide(runId, { approved: true, editedArguments: { from_account: "operating", to_account: "refunds", amount: 4 } });
    await waitForStatus(h.engine, runId, ["completed"], 60_000);

    as("builder");
    const byAction = await audited(h.db, async () => actionOutcome(await addRunsToDatasetAction({ newDataset: { name: name() }, runIds: [runId] })));
    const byRoute = await audited(h.db, async () => routeOutcome(await addRunsRoute.POST(apiRequest("POST", "/api/datasets/add-runs", { newDataset: { name: name() }, runIds: [runId] }), params({}))));
    const [a, b] = [dataOf<DatasetChange>(byAction.outcome), dataOf<DatasetChange>(byRoute.outcome)];
    expect(a).toMatchObject({ version: 1, itemCount: 1, added: 1, removed: 0 });
    expect(byAction.audit.map((r) => r.action)).toEqual(["dataset.created", "dataset.items_added"]);
    expect(byRoute.audit.map((r) => r.action)).toEqual(["dataset.created", "dataset.items_added"]);
    expect(byAction.audit.every((r) => r.actorId === ids.builder && r.target === a.datasetId)).toBe(true);

    const [item] = (await readDatasetItems(h.db, { datasetId: a.datasetId })).items;
    const [same] = (await readDatasetItems(h.db, { datasetId: b.datasetId })).items;
    expect(blank(same!), "both doors make the same item").toEqual(blank(item!));
    expect(item!.input).toEqual({ task: expect.stringContaining("tool calculator") as string, context: { customer: 7 } });
    expect(item!.source).toEqual({ runId });
    expect(item!.expected.output).toBe("lead done");
    expect(item!.expected.trajectory?.map((c) => c.tool), "the tree's calls as they completed (the payer's transfer inside message_agent)").toEqual(["calculator", "ledger_transfer", "message_agent"]);
    expect(item!.expected.trajectory?.[0]?.arguments).toEqual({ expression: "6*7" });
    const tape = item!.tape;
    expect(tape.map((e) => (e.kind === "tool_call" ? e.tool : e.kind)), "the engine's own message_agent is not taped").toEqual(["calculator", "ledger_transfer"]);
    expect(tape[0]).toMatchObject({ kind: "tool_call", arguments: { expression: "6*7" }, outcome: "ok" });
    expect(tape[0]?.kind === "tool_call" && tape[0].result).toContain("42");
    expect(tape[1]).toMatchObject({ kind: "tool_call", arguments: { amount: 6 }, outcome: "ok", approval: { approved: true, editedArguments: { amount: 4 }, decidedBy: "approver@zap.local" } });

    // A second run into the existing dataset is its next version.
    const { runId: second } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["calculator"] }, { followUpWindowSeconds: 0 }), task: 'tool calculator {"expression":"1+1"}\nanswer: two' });
    await waitForStatus(h.engine, second, ["completed"], 60_000);
    const next = dataOf<DatasetChange>(await routeOutcome(await addRunsRoute.POST(apiRequest("POST", "/api/datasets/add-runs", { datasetId: a.datasetId, runIds: [second], note: "one more" }), params({}))));
    expect(next).toMatchObject({ datasetId: a.datasetId, version: 2, itemCount: 2 });

    for (const [what, body, status] of [
      ["an unknown run", { datasetId: a.datasetId, runIds: ["no-such-run"] }, 404],
      ["no runs", { datasetId: a.datasetId, runIds: [] }, 422],
      ["both a dataset and a new one", { datasetId: a.datasetId, newDataset: { name: name() }, runIds: [second] }, 422],
      ["an unknown key", { datasetId: a.datasetId, runIds: [second], colour: "red" }, 422],
    ] as const) {
      const route = await routeOutcome(await addRunsRoute.POST(apiRequest("POST", "/api/datasets/add-runs", body), params({})));
      expectSameRefusal(route, actionOutcome(await addRunsToDatasetAction(body)), what);
      expect(route.ok === false && route.status, what).toBe(status);
    }
    as("viewer");
    const refused = await routeOutcome(await addRunsRoute.POST(apiRequest("POST", "/api/datasets/add-runs", { datasetId: a.datasetId, runIds: [second] }), params({})));
    expectSameRefusal(refused, actionOutcome(await addRunsToDatasetAction({ datasetId: a.datasetId, runIds: [second] })), "a viewer");
    expect(refused.ok === false && refused.status).toBe(403);
  });

  it.skipIf(!available)("items from approval decisions: approved and edited calls expected, a rejection a negative example with its reason", async () => {
    const graph = singleAgentGraph({ tools: ["ledger_transfer"] }, { followUpWindowSeconds: 0 });
    const runs = await Promise.all([21, 22, 23].map((amount) => h.engine.startRun({ graph, task: `${transfer(amount)}\nanswer: done`, context: { amount } })));
    const approved = await decide(runs[0]!.runId, { approved: true });
    const edited = await decide(runs[1]!.runId, { approved: true, editedArguments: { from_account: "operating", to_account: "refunds", amount: 2 } });
    const rejected = await decide(runs[2]!.runId, { approved: false, reason: "over the refund limit" });

    as("viewer");
    const listed = dataOf<{ approvals: DecidedApproval[] }>(await routeOutcome(await approvalsRoute.GET(apiRequest("GET", "/api/datasets/approvals?tool=ledger_transfer"), params({}))));
    const mine = listed.approvals.filter((x) => [approved, edited, rejected].includes(x.approvalId));
    expect(mine.map((x) => [x.approved, x.editedArguments?.amount ?? null, x.reason])).toEqual(
      expect.arrayContaining([
        [true, null, null],
        [true, 2, null],
        [false, null, "over the refund limit"],
      ]),
    );
    const unknownKey = await routeOutcome(await approvalsRoute.GET(apiRequest("GET", "/api/datasets/approvals?colour=red"), params({})));
    expect(unknownKey.ok === false && unknownKey.status).toBe(422);

    as("builder");
    const approvalIds = [approved, edited, rejected];
    const a = dataOf<DatasetChange>(actionOutcome(await addApprovalsToDatasetAction({ newDataset: { name: name() }, approvalIds })));
    const b = dataOf<DatasetChange>(await routeOutcome(await addApprovalsRoute.POST(apiRequest("POST", "/api/datasets/add-approvals", { newDataset: { name: name() }, approvalIds }), params({}))));
    const items = (await readDatasetItems(h.db, { datasetId: a.datasetId })).items;
    expect((await readDatasetItems(h.db, { datasetId: b.datasetId })).items.map(blank)).toEqual(items.map(blank));
    expect(items.map((i) => [i.input.context, i.tags, i.source.approvalId])).toEqual([
      [{ amount: 21 }, ["approved"], approved],
      [{ amount: 22 }, ["edited"], edited],
      [{ amount: 23 }, ["rejected"], rejected],
    ]);
    expect(items[0]?.expected).toEqual({ trajectory: [{ tool: "ledger_transfer", arguments: { from_account: "operating", to_account: "refunds", amount: 21 } }] });
    expect(items[1]?.expected.trajectory?.[0]?.arguments, "the approver's edit is what is expected").toEqual({ from_account: "operating", to_account: "refunds", amount: 2 });
    expect(items[2]?.expected).toEqual({ negative: [{ tool: "ledger_transfer", arguments: { from_account: "operating", to_account: "refunds", amount: 23 }, reason: "over the refund limit" }] });

    const unknown = await routeOutcome(await addApprovalsRoute.POST(apiRequest("POST", "/api/datasets/add-approvals", { datasetId: a.datasetId, approvalIds: ["nope"] }), params({})));
    expectSameRefusal(unknown, actionOutcome(await addApprovalsToDatasetAction({ datasetId: a.datasetId, approvalIds: ["nope"] })), "an unknown approval");
    expect(unknown.ok === false && unknown.error.message).toBe("There is no decided approval nope");
  });

  it.skipIf(!available)("an import with broken lines is refused by line through either door; valid lines on request; an oversized body is a 413", async () => {
    as("builder");
    const csv = ["task,context,expected_output", "fine,{},yes", `"broken"quote,{},x`, "bad,{nope},y", "also fine,,ok"].join("\n");
    const body = { newDataset: { name: name() }, format: "csv", content: csv };
    const route = await routeOutcome(await importRoute.POST(apiRequest("POST", "/api/datasets/import", body), params({})));
    expectSameRefusal(route, actionOutcome(await importDatasetAction(body)), "a CSV with broken lines");
    expect(route.ok === false && route.status).toBe(422);
    expect(route.ok === false && route.error.message).toBe("Nothing was imported: 2 lines have problems. line 3: broken quotes");
    expect(route.ok === false && route.error.issues?.map((i) => i.message)).toEqual(["line 3: broken quotes", "line 4: context is not JSON"]);
    expect(await h.db.dataset.findUnique({ where: { name: body.newDataset.name } }), "nothing was created").toBeNull();

    const skipped = await audited(h.db, async () => routeOutcome(await importRoute.POST(apiRequest("POST", "/api/datasets/import", { ...body, skipInvalid: true }), params({}))));
    const change = dataOf<DatasetChange & { skipped: unknown[] }>(skipped.outcome);
    expect(change).toMatchObject({ version: 1, itemCount: 2, skipped: [{ line: 3, message: "broken quotes" }, { line: 4, column: "context", message: "is not JSON" }] });
    expect(skipped.audit.map((r) => r.action)).toEqual(["dataset.created", "dataset.imported"]);
    expect((await readDatasetItems(h.db, { datasetId: change.datasetId })).items.map((i) => [i.input.task, i.expected.output])).toEqual([
      ["fine", "yes"],
      ["also fine", "ok"],
    ]);

    const empty = await routeOutcome(await importRoute.POST(apiRequest("POST", "/api/datasets/import", { datasetId: change.datasetId, format: "jsonl", content: "\n" }), params({})));
    expect(empty.ok === false && [empty.status, empty.error.message]).toEqual([422, "The JSONL file has 0 items"]);
    const huge = await importRoute.POST(apiRequest("POST", "/api/datasets/import", { datasetId: change.datasetId, format: "csv", content: `task\n${"x".repeat(13 * 1024 * 1024)}` }), params({}));
    expect(huge.status).toBe(413);
  });
});
