// The tape as experiments use it (tape-contract.md), on the real engine: a
// tool_call entry answers a call with equal arguments (in any key order) and
// is taken once, in order, even by parallel calls, and a retried lookup gets
// the entry it claimed; a stub answers the rest of its tool; a tool with no
// match that may not run live gets the contract's error; an approval-gated
// call never reaches the inbox when the tape's policy decides. SQLite and PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import { saveAgentVersion } from "../../lib/agents/repository";
import type { RunEvent } from "../../lib/contract/types";
import type { SessionUser } from "../../lib/auth/server/session";
import { startTapedRunWith } from "../../lib/tapes/server/start-taped-run";
import { createTape, findToolEntry, readTapeEntries } from "../../lib/tapes/server/tape-store";
import type { TapeEntry, TapeSettings } from "../../lib/tapes/schemas";
import { ValidationError } from "../../lib/errors";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const providers = await testProviders();
let h: EngineHarness;
let builder: SessionUser;

type Completed = Extract<RunEvent, { type: "tool_call_completed" }>;
const toolResults = (events: RunEvent[]) => events.filter((e): e is Completed => e.type === "tool_call_completed");
const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount}}`;

async function setUp(create: () => Promise<TestDatabase>) {
  h = await startEngineHarness({ database: await create(), policy: { exemptTools: ["calculator", "current_time", "kb__search_kb"] } });
  const user = await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" } });
  builder = { id: user.id, email: user.email, name: user.name ?? "builder", role: "builder" };
}

async function tapedRun(tools: string[], task: string, entries: TapeEntry[], settings: TapeSettings, extra: { approvalRules?: unknown[] } = {}) {
  const graphName = `tape-${randomUUID().slice(0, 8)}`;
  await saveAgentVersion(h.db, graphName, singleAgentGraph({ tools, ...extra }, { followUpWindowSeconds: 0 }), { createdById: builder.id });
  const started = await startTapedRunWith({ db: h.db, engine: h.engine }, { graphName, version: 1, task, context: {}, tape: { entries, settings, purpose: "experiment" }, startedBy: builder, origin: { experimentId: "exp-test" } });
  const summary = await waitForStatus(h.engine, started.runId, ["completed", "failed"], 60_000);
  return { ...started, summary, events: await h.engine.getEvents(started.runId) };
}

describe.each(providers)("tapes on $provider", ({ available, create }) => {
  beforeAll(async () => {
    if (available) await setUp(create);
  }, scaledWait(120_000));
  afterAll(async () => {
    if (available) await h.stop();
  });

  it.skipIf(!available)("a tool_call entry is claimed once: parallel calls take one each, a retry re-reads its own, then nothing is left", async () => {
    const entry = (result: string): TapeEntry => ({ kind: "tool_call", tool: "lookup_order", arguments: { order_id: "A-1", verbose: true }, outcome: "ok", result });
    const { tapeId } = await createTape(h.db, { purpose: "experiment", entries: [entry("first"), entry("second")], settings: { live: { tools: [] }, approvals: "reject" } });
    const call = (claimKey: string) => findToolEntry(h.db, tapeId, { tool: "lookup_order", rawArguments: '{"verbose":true,"order_id":"A-1"}', path: "", iteration: 1, callId: claimKey, claimKey });
    const results = await Promise.all(["r:1:a", "r:1:b", "r:1:c"].map(call));
    expect(results.map((r) => r?.result ?? null).sort()).toEqual([null, "first", "second"].sort((a, b) => String(a).localeCompare(String(b))));
    const winner = ["r:1:a", "r:1:b", "r:1:c"][results.findIndex((r) => r?.result === "first")] ?? "";
    // The same call again (an activity retry): its own entry, not a second one.
    expect((await call(winner))?.result).toBe("first");
    expect(await call("r:2:z")).toBeNull();
    const claims = await h.db.tapeEntry.findMany({ where: { tapeId }, orderBy: { seq: "asc" }, select: { claimedBy: true } });
    expect(claims.every((c) => c.claimedBy !== null)).toBe(true);
    expect(new Set(claims.map((c) => c.claimedBy)).size).toBe(2);
    expect(await readTapeEntries(h.db, tapeId)).toEqual([entry("first"), entry("second")]);
  });

  it.skipIf(!available)("refuses a tape over the limit or of the wrong shape, naming it", async () => {
    const error = await createTape(h.db, { purpose: "experiment", entries: [{ kind: "tool_stub", tool: "" } as unknown as TapeEntry], settings: { live: "all", approvals: "inbox" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.path).toMatch(/^entries\[0\]/);
  });

  it.skipIf(!available)("recorded calls replay, stubs answer the rest, and a tool that may not run live gets the contract's error", async () => {
    const before = await h.db.ledgerEntry.count();
    const task = ['tool lookup_order {"order_id":"A-1003"} && tool lookup_order {"order_id":"A-1003"}', 'tool current_time {}', transfer(3), 'tool calculator {"expression":"1+1"}', "answer: done"].join("\n");
    const { summary, events } = await tapedRun(
      ["lookup_order", "current_time", "ledger_transfer", "calculator"],
      task,
      [
        { kind: "tool_call", tool: "lookup_order", arguments: { order_id: "A-1003" }, outcome: "ok", result: '{"recorded":1}' },
        { kind: "tool_stub", tool: "lookup_order", result: '{"stub":true}' },
        { kind: "tool_stub", tool: "current_time", result: '{"now":"2020-01-01T00:00:00Z"}' },
      ],
      { live: { tools: ["calculator"] }, approvals: "approve" },
    );
    expect(summary.status).toBe("completed");
    const results = toolResults(events);
    const of = (tool: string) => results.filter((r) => r.tool === tool);
    // Two parallel calls with equal arguments: one takes the entry, the other the stub.
    expect(of("lookup_order").map((r) => r.result).sort()).toEqual(['{"recorded":1}', '{"stub":true}']);
    expect(of("lookup_order").every((r) => r.replayed === true)).toBe(true);
    expect(of("current_time")[0]).toMatchObject({ result: '{"now":"2020-01-01T00:00:00Z"}', replayed: true });
    expect(of("ledger_transfer")[0]).toMatchObject({ outcome: "error", result: "No recorded result for ledger_transfer and it may not run live in this experiment" });
    expect(of("calculator")[0]?.replayed).toBeUndefined();
    expect(of("calculator")[0]?.outcome).toBe("ok");
    expect(await h.db.ledgerEntry.count()).toBe(before);
  });

  it.skipIf(!available)("the tape's policy decides approval-gated calls with no recording: never the inbox", async () => {
    const rules = [{ pattern: "calculator", requiredRole: "approver" }];
    const rejected = await tapedRun(["calculator"], 'tool calculator {"expression":"2+2"}\nanswer: done', [], { live: "all", approvals: "reject" }, { approvalRules: rules });
    expect(rejected.events.some((e) => e.type === "approval_requested")).toBe(false);
    expect(toolResults(rejected.events)[0]).toMatchObject({ outcome: "rejected", result: "The call to calculator was not approved (rejected): decided by the experiment's policy" });
    // "approve" never lets a gated call act for real: with the tool allowed live and nothing recorded or
    // stubbed, the call is rejected (the gate that checks the experiment's starter stays shut)…
    const approvedLive = await tapedRun(["calculator"], 'tool calculator {"expression":"2+2"}\nanswer: done', [], { live: "all", approvals: "approve" }, { approvalRules: rules });
    expect(approvedLive.events.some((e) => e.type === "approval_requested")).toBe(false);
    expect(toolResults(approvedLive.events)[0]).toMatchObject({ outcome: "rejected" });
    expect(toolResults(approvedLive.events)[0]?.result).toContain("does not run live in an experiment");
    // …while a stub answers the approved call.
    const approved = await tapedRun(["calculator"], 'tool calculator {"expression":"2+2"}\nanswer: done', [{ kind: "tool_stub", tool: "calculator", result: "4 (stub)" }], { live: { tools: [] }, approvals: "approve" }, { approvalRules: rules });
    expect(approved.events.some((e) => e.type === "approval_requested")).toBe(false);
    expect(toolResults(approved.events)[0]?.result).toContain("4 (stub)");
    // A recorded decision is the call's outcome: a recorded rejection's text reaches the model.
    const recorded = await tapedRun(
      ["calculator"],
      'tool calculator {"expression":"2+2"}\nanswer: done',
      [{ kind: "tool_call", tool: "calculator", arguments: { expression: "2+2" }, outcome: "rejected", result: "The call to calculator was not approved (rejected): not today", approval: { approved: false, reason: "not today" } }],
      { live: "all", approvals: "approve" },
      { approvalRules: rules },
    );
    expect(recorded.events.some((e) => e.type === "approval_requested")).toBe(false);
    expect(toolResults(recorded.events)[0]).toMatchObject({ outcome: "rejected", result: "The call to calculator was not approved (rejected): not today", replayed: true });
    const row = await h.db.run.findUniqueOrThrow({ where: { id: recorded.runId } });
    expect(row.experimentId).toBe("exp-test");
  });

  it.skipIf(!available)("a tool_at entry answers only its own tool: another tool called at the same place is not given its result", async () => {
    const recorded: TapeEntry = { kind: "tool_at", path: "", iteration: 1, callId: "call_1_0_0", tool: "calculator", outcome: "ok", result: "42 (recorded for calculator)" };
    const { tapeId } = await createTape(h.db, { purpose: "experiment", entries: [recorded, { kind: "tool_stub", tool: "current_time", result: "stubbed time" }], settings: { live: { tools: [] }, approvals: "reject" } });
    const at = (tool: string) => findToolEntry(h.db, tapeId, { tool, rawArguments: "{}", path: "", iteration: 1, callId: "call_1_0_0", claimKey: `r:1:${tool}` });
    expect(await at("calculator")).toMatchObject({ source: "tool_at", result: "42 (recorded for calculator)" });
    // Before: the calculator's recorded result answered current_time, because only the place was matched.
    expect(await at("current_time")).toMatchObject({ source: "tool_stub", result: "stubbed time" });
    // On the engine: the model calls current_time where the tape recorded a calculator call; current_time runs live.
    const { summary, events } = await tapedRun(["current_time", "calculator"], "tool current_time {}\nanswer: done", [recorded], { live: { tools: ["current_time"] }, approvals: "reject" });
    expect(summary.status).toBe("completed");
    const [result] = toolResults(events);
    expect(result).toMatchObject({ tool: "current_time", outcome: "ok" });
    expect(result?.replayed).toBeUndefined();
    expect(result?.result).not.toContain("recorded for calculator");
  });

  it.skipIf(!available)("an idempotent start: the same workflow id returns the run already started", async () => {
    const graphName = `tape-${randomUUID().slice(0, 8)}`;
    await saveAgentVersion(h.db, graphName, singleAgentGraph({ tools: [] }, { followUpWindowSeconds: 0 }), { createdById: builder.id });
    const workflowId = `main-exp-${randomUUID()}`;
    const start = () => startTapedRunWith({ db: h.db, engine: h.engine }, { graphName, version: 1, task: "answer: once", context: {}, tape: { entries: [], settings: { live: "all", approvals: "reject" }, purpose: "experiment" }, startedBy: builder, workflowId });
    const first = await start();
    const second = await start();
    expect(second).toEqual(first);
    expect(first.runId).toBe(workflowId);
    await waitForStatus(h.engine, workflowId, ["completed"], 60_000);
    expect(await h.db.run.count({ where: { id: workflowId } })).toBe(1);
  });
});
