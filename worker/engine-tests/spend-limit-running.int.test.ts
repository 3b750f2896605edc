// Spend limits and runs already working (issue 39 §3, docs/spend-limits.md
// "Runs already working"), on real Temporal, SQLite and PostgreSQL: a run whose
// graph's limit is reached mid-run pauses into the inbox (onReached "ask") and
// goes on once the limit is raised and the request approved (asking again while
// it is not), or stops with spend_limit_reached (onReached "stop", a rejection).
// The check is made by the model-call activity, so no model is called past it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Worker } from "@temporalio/worker";
import { testProviders } from "../../scripts/test-support/databases";
import { eventually, sharedWorkflowBundle, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { createClaimCheckCodec } from "../../lib/temporal/claim-check-codec";
import { saveAgentVersion } from "../../lib/agents/repository";
import { launchSavedRun } from "../../lib/runs/launch-saved";
import { launchRunSchema } from "../../lib/runs/schemas";
import { setSpendLimit } from "../../lib/spend-limits/server/store";
import { enrich } from "../../lib/inbox/server/inbox";
import { ValidationError } from "../../lib/errors";
import { SPEND_LIMIT_APPROVAL_TOOL } from "../../lib/contract/spend-limit-approval";
import type { ApprovalRequest, RunEvent } from "../../lib/contract/types";
import type { Role } from "../../lib/access/roles";

const providers = await testProviders();
const TEST_TIMEOUT_MS = 150_000;

/**
 * Three model calls of 600 output tokens, each thinking 3.5 s (longer than the check's few seconds of cache, so
 * the second call reads the first one's spend): at a dollar a token the first call passes a $100 limit.
 */
const TASK = 'think 3500\ntokens 600\nrepeat 2 tool calculator {"expression":"1+1"}\nanswer: done';
const LIMIT_USD = 100;

describe.concurrent.each(providers)("spend limits of working runs on $provider", ({ available, create }) => {
  let h: EngineHarness;
  let admin: { id: string; email: string; role: Role };
  let approver: { id: string; email: string; role: string };

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ database: await create() });
    const a = await h.db.user.findUniqueOrThrow({ where: { email: "admin@zap.local" } });
    admin = { id: a.id, email: a.email, role: a.role as Role };
    const b = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
    approver = { id: b.id, email: b.email, role: b.role };
    // A dollar per token on the demo model (demo models cost $0 unless an admin prices them).
    await h.db.modelPrice.create({ data: { model: "demo/test", effectiveFrom: new Date("2020-01-01T00:00:00Z"), input: 1_000_000, output: 1_000_000, createdById: admin.id } });
  }, TEST_TIMEOUT_MS);
  afterAll(async () => {
    if (available) await h.stop();
  }, TEST_TIMEOUT_MS);

  /** A saved graph with a daily limit of $100 that does `onReached`, and a run of it started as the admin (the start passes: nothing is spent yet). */
  async function runUnderLimit(graph: string, onReached: "ask" | "stop") {
    await saveAgentVersion(h.db, graph, singleAgentGraph({ tools: ["calculator"] }), { createdById: admin.id });
    const limit = await setSpendLimit(h.db, { scope: "graph", scopeId: graph, period: "day", amountUsd: LIMIT_USD, onReached }, admin);
    expect(limit.onReached).toBe(onReached);
    const { runId } = await launchSavedRun({ db: h.db, engine: h.engine }, launchRunSchema.parse({ graph, task: TASK }), { id: admin.id, email: admin.email });
    return { runId, limitId: limit.id };
  }

  async function pendingOf(runId: string, other?: string): Promise<ApprovalRequest> {
    const pending = await eventually(
      () => h.engine.getPendingApprovals(runId),
      (list) => list.length === 1 && list[0]?.id !== other && !list[0]?.unconfirmed,
      45_000,
      "the run's spend limit request",
    );
    return pending[0] as ApprovalRequest;
  }

  const calls = (events: RunEvent[]) => events.filter((e) => e.type === "inference_completed").length;

  it.skipIf(!available)(
    "ask: the run pauses into the inbox once its graph's limit is reached, asks again while it is, and goes on once the limit is raised and the request approved; its history replays",
    async () => {
      const { runId, limitId } = await runUnderLimit("spend-ask", "ask");
      await waitForStatus(h.engine, runId, ["awaiting_approval"], 45_000);
      const approval = await pendingOf(runId);
      expect(approval).toMatchObject({ kind: "spend_limit", toolName: SPEND_LIMIT_APPROVAL_TOOL, arguments: { limitId }, spendLimit: { limitId, scope: "graph", scopeLabel: "spend-ask", period: "day", amountUsd: LIMIT_USD, onReached: "ask" } });
      expect(approval.spendLimit?.message).toMatch(/spent of the daily spend limit of graph "spend-ask" \(\$100\.00\)/);
      expect(calls(await h.engine.getEvents(runId)), "one model call was made; the second was not").toBe(1);
      const [item] = await enrich(h.db, [approval]);
      expect(item).toMatchObject({ precedingMessage: null, toolSchema: { properties: {} } });

      // Nothing may be edited: 422, the run keeps waiting.
      const edit = await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, editedArguments: { limitId: "x" }, decidedBy: approver }).catch((e: unknown) => e);
      expect(edit).toBeInstanceOf(ValidationError);
      expect((edit as ValidationError).userMessage).toMatch(/cannot be edited/);

      // Approved while the limit is still reached: the call is checked again and the run asks again (no model call between).
      await h.engine.decideApproval(runId, { approvalId: approval.id, approved: true, decidedBy: approver });
      const again = await pendingOf(runId, approval.id);
      expect(again.kind).toBe("spend_limit");
      expect(calls(await h.engine.getEvents(runId))).toBe(1);

      // An admin raises the limit; approved, the run goes on to its answer.
      await setSpendLimit(h.db, { scope: "graph", scopeId: "spend-ask", period: "day", amountUsd: 1_000_000 }, admin);
      await h.engine.decideApproval(runId, { approvalId: again.id, approved: true, reason: "limit raised", decidedBy: approver });
      const done = await waitForStatus(h.engine, runId, ["completed"], 60_000);
      expect(done.output).toBe("done");
      expect(calls(await h.engine.getEvents(runId))).toBe(3);

      const record = await h.db.approvalRecord.findUniqueOrThrow({ where: { id: again.id } });
      expect(record).toMatchObject({ runId, status: "approved", toolName: SPEND_LIMIT_APPROVAL_TOOL, decidedByEmail: approver.email, reason: "limit raised" });
      expect(await h.db.auditEvent.findUniqueOrThrow({ where: { id: `approval:${again.id}` } })).toMatchObject({ action: "approval.approved", actorId: approver.id });

      await h.client.workflow.getHandle(runId).terminate("the test is done").catch(() => undefined);
      const dataConverter = { payloadCodecs: [createClaimCheckCodec({ db: h.db, thresholdBytes: h.config.temporal.payloadOffloadBytes })] };
      const history = await h.client.workflow.getHandle(runId).fetchHistory();
      await Worker.runReplayHistory({ workflowBundle: sharedWorkflowBundle(), dataConverter }, history, runId);
    },
    TEST_TIMEOUT_MS,
  );

  it.skipIf(!available)("stop: a running run whose graph's limit is reached ends failed with spend_limit_reached, naming the limit, and never asks", async () => {
    const { runId } = await runUnderLimit("spend-stop", "stop");
    const failed = await waitForStatus(h.engine, runId, ["failed"], 45_000);
    expect(failed.error?.reason).toBe("spend_limit_reached");
    expect(failed.error?.message).toMatch(/spent of the daily spend limit of graph "spend-stop" \(\$100\.00\); the limit stops running runs/);
    expect(calls(await h.engine.getEvents(runId))).toBe(1);
    expect(await h.db.approvalRecord.count({ where: { runId } })).toBe(0);
  }, TEST_TIMEOUT_MS);

  it.skipIf(!available)("ask, rejected: the run stops with spend_limit_reached, naming who stopped it and why; audited", async () => {
    const { runId } = await runUnderLimit("spend-reject", "ask");
    const approval = await pendingOf(runId);
    await h.engine.decideApproval(runId, { approvalId: approval.id, approved: false, reason: "over budget this month", decidedBy: approver });
    const failed = await waitForStatus(h.engine, runId, ["failed"], 45_000);
    expect(failed.error?.reason).toBe("spend_limit_reached");
    expect(failed.error?.message).toContain(`${approver.email} stopped the run: over budget this month`);
    expect(await h.db.auditEvent.findUniqueOrThrow({ where: { id: `approval:${approval.id}` } })).toMatchObject({ action: "approval.rejected" });
  }, TEST_TIMEOUT_MS);
});
