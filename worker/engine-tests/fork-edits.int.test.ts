// Issue 36 §2 on the real engine: a fork's edited step never passes for a
// recording. The edited tool result or model output is replayed from the tape
// as `edited` (who, when) on its event and span, never `replayed`; a gated
// tool replayed from an edited entry is not `approval: "recorded"`; a fork of
// that fork carries the mark on; and an edited prompt runs as an unsaved
// variant of the saved version. SQLite and PostgreSQL.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";
import { saveAgentVersion } from "../../lib/agents/repository";
import { readSpans } from "../../lib/run-ledger/read";
import type { RunEvent, TraceSpan } from "../../lib/contract/types";
import type { SessionUser } from "../../lib/auth/server/session";
import { forkRunWith } from "../../lib/forks/server/fork-run";
import { parseForkEdit, type ForkRunInput } from "../../lib/forks/schemas";
import { scaledWait } from "../../scripts/test-support/wait-scale";

const providers = await testProviders();
let h: EngineHarness;
let builder: SessionUser;
let approver: { id: string; email: string; role: string };

type Completed = Extract<RunEvent, { type: "tool_call_completed" }>;
type Inferred = Extract<RunEvent, { type: "inference_completed" }>;
const toolResults = (events: RunEvent[]) => events.filter((e): e is Completed => e.type === "tool_call_completed");
const inferences = (events: RunEvent[]) => events.filter((e): e is Inferred => e.type === "inference_completed");
const TASK = ['tool calculator {"expression":"2+2"}', 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":3}', "answer: all done"].join("\n");

async function setUp(create: () => Promise<TestDatabase>) {
  h = await startEngineHarness({ database: await create(), policy: { exemptTools: ["calculator"] } });
  const user = await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" } });
  builder = { id: user.id, email: user.email, name: user.name ?? "builder", role: "builder" };
  const a = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
  approver = { id: a.id, email: a.email, role: a.role };
}

const fork = (input: ForkRunInput) => forkRunWith({ db: h.db, engine: h.engine }, input, builder);
const spanOf = (spans: TraceSpan[], kind: TraceSpan["kind"], name: string | null, nth = 0) => {
  const span = spans.filter((s) => s.kind === kind && (name === null || s.name === name))[nth];
  if (!span) throw new Error(`no ${kind} span ${name ?? ""}`);
  return span;
};

/** A saved agent whose transfers need an approver, and a finished run of it with the transfer approved. */
async function approvedOrigin(): Promise<{ graph: string; origin: string }> {
  const graph = `edits-${randomUUID().slice(0, 8)}`;
  await saveAgentVersion(h.db, graph, singleAgentGraph({ tools: ["calculator", "ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver" }] }, { followUpWindowSeconds: 0 }), { createdById: builder.id });
  const { runId: origin } = await h.engine.startRun({ graphName: graph, task: TASK, startedBy: { id: builder.id, email: builder.email } });
  await waitForStatus(h.engine, origin, ["awaiting_approval"], 60_000);
  const [approval] = await h.engine.getPendingApprovals(origin);
  if (!approval) throw new Error("expected an approval");
  await h.engine.decideApproval(origin, { approvalId: approval.id, approved: true, reason: "ok", decidedBy: approver });
  await waitForStatus(h.engine, origin, ["completed"], 60_000);
  return { graph, origin };
}

describe.each(providers)("edited forks on $provider", ({ available, create }) => {
  beforeAll(async () => {
    if (available) await setUp(create);
  }, scaledWait(120_000));
  afterAll(async () => {
    if (available) await h.stop();
  });

  it.skipIf(!available)("an edited gated tool result is edited (who, when) on its event and span, not replayed nor a recorded approval; a fork of the fork keeps the mark", async () => {
    const { origin } = await approvedOrigin();
    const transfer = spanOf(await readSpans(h.db, origin), "tool", "ledger_transfer");
    const forked = await fork({ runId: origin, spanId: transfer.id, editedToolResult: '{"status":"posted","by":"nobody"}' });
    await waitForStatus(h.engine, forked.runId, ["completed"], 60_000);
    const results = toolResults(await h.engine.getEvents(forked.runId));
    expect(results[0]).toMatchObject({ tool: "calculator", replayed: true });
    expect(results[1]).toMatchObject({ tool: "ledger_transfer", edited: { by: builder.email, at: expect.any(String) } });
    expect(results[1]?.replayed).toBeUndefined();
    const span = spanOf(await readSpans(h.db, forked.runId), "tool", "ledger_transfer");
    expect(span.attributes).toMatchObject({ edited: true, editedBy: builder.email, editedAt: expect.any(String) });
    expect(span.attributes?.replayed).toBeUndefined();
    expect(span.attributes?.approval).toBeUndefined();
    expect(parseForkEdit((await h.db.run.findUniqueOrThrow({ where: { id: forked.runId } })).forkEdit)).toMatchObject({ kind: "tool_result", step: "tool ledger_transfer", by: builder.email });

    // Forking the fork after the edited step: the edit is carried as an edit, never laundered into a recording.
    const answer = spanOf(await readSpans(h.db, forked.runId), "inference", null, 2);
    const again = await fork({ runId: forked.runId, spanId: answer.id });
    await waitForStatus(h.engine, again.runId, ["completed"], 60_000);
    const carried = toolResults(await h.engine.getEvents(again.runId));
    expect(carried[1]).toMatchObject({ tool: "ledger_transfer", edited: { by: builder.email } });
    expect(carried[1]?.replayed).toBeUndefined();
    expect(parseForkEdit((await h.db.run.findUniqueOrThrow({ where: { id: again.runId } })).forkEdit)).toMatchObject({ inherited: true, by: builder.email });
  });

  it.skipIf(!available)("an edited model output is edited on its event and span, not replayed, and costs nothing", async () => {
    const graph = `edits-${randomUUID().slice(0, 8)}`;
    await saveAgentVersion(h.db, graph, singleAgentGraph({ tools: ["calculator"] }, { followUpWindowSeconds: 0 }), { createdById: builder.id });
    const { runId: origin } = await h.engine.startRun({ graphName: graph, task: 'tool calculator {"expression":"2+2"}\nanswer: 4', startedBy: { id: builder.id, email: builder.email } });
    await waitForStatus(h.engine, origin, ["completed"], 60_000);
    const last = spanOf(await readSpans(h.db, origin), "inference", null, 1);
    const forked = await fork({ runId: origin, spanId: last.id, editedModelOutput: "It is 5." });
    const summary = await waitForStatus(h.engine, forked.runId, ["completed"], 60_000);
    expect(summary.output).toBe("It is 5.");
    const calls = inferences(await h.engine.getEvents(forked.runId));
    expect(calls.map((c) => [c.replayed === true, c.edited?.by ?? null])).toEqual([[true, null], [false, builder.email]]);
    const span = spanOf(await readSpans(h.db, forked.runId), "inference", null, 1);
    expect(span.attributes).toMatchObject({ edited: true, editedBy: builder.email });
    expect(span.attributes?.replayed).toBeUndefined();
  });

  it.skipIf(!available)("an edited prompt runs as an unsaved variant: the row names the saved version it derives from, never claims it", async () => {
    const graph = `edits-${randomUUID().slice(0, 8)}`;
    await saveAgentVersion(h.db, graph, singleAgentGraph({ tools: ["calculator"] }, { followUpWindowSeconds: 0 }), { createdById: builder.id });
    const { runId: origin } = await h.engine.startRun({ graphName: graph, task: 'tool calculator {"expression":"2+2"}\nanswer: 4', startedBy: { id: builder.id, email: builder.email } });
    await waitForStatus(h.engine, origin, ["completed"], 60_000);
    const v1 = await h.db.agentVersion.findFirstOrThrow({ where: { agent: { name: graph }, version: 1 } });
    const last = spanOf(await readSpans(h.db, origin), "inference", null, 1);
    const forked = await fork({ runId: origin, spanId: last.id, prompt: { agent: "main", systemPrompt: "You help, briefly." } });
    await waitForStatus(h.engine, forked.runId, ["completed"], 60_000);
    expect(await h.db.run.findUniqueOrThrow({ where: { id: forked.runId } })).toMatchObject({ graphName: graph, agentVersionId: null, variantOfVersionId: v1.id });
    // A fork of the variant starts from the version it was derived from.
    const again = await fork({ runId: forked.runId, spanId: spanOf(await readSpans(h.db, forked.runId), "inference", null, 1).id });
    expect(await h.db.run.findUniqueOrThrow({ where: { id: again.runId } })).toMatchObject({ agentVersionId: v1.id, variantOfVersionId: null });
  });
});
