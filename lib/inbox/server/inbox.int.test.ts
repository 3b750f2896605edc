// The inbox's server layer against real Temporal and a real database: what
// it lists (sub-agents included, once each), how decisions and expiries leave
// it, bulk outcomes, and what the audit shows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../../scripts/test-support/engine-harness";
import type { SessionUser } from "../../auth/server/session";
import type { Role } from "../../access/roles";
import { listAudit } from "./audit";
import { decideMany, decideOne } from "./decide";
import { loadInbox, loadRunApprovals } from "./inbox";
import { readRunDecisions } from "./decisions";

let h: EngineHarness;
let approver: SessionUser;
let admin: SessionUser;

beforeAll(async () => {
  h = await startEngineHarness();
  const person = async (email: string): Promise<SessionUser> => {
    const u = await h.db.user.findUniqueOrThrow({ where: { email } });
    return { id: u.id, email: u.email, name: u.name, role: u.role as Role };
  };
  approver = await person("approver@zap.local");
  admin = await person("admin@zap.local");
});
afterAll(async () => h?.stop());

const transfer = (amount: number) => `tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":${amount}}`;
const gated = (rule: Record<string, unknown> = {}) => singleAgentGraph({ tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", ...rule }] });
const inboxOf = async (rootRunId: string) => (await loadInbox(h.engine, h.db)).items.filter((i) => i.rootRunId === rootRunId);
const waiting = (rootRunId: string, count = 1) => eventually(() => inboxOf(rootRunId), (items) => items.length === count, 20_000, `${count} pending in ${rootRunId}`);

describe("approval inbox", () => {
  it("lists a sub-agent's call once with its chain, message, tokens and schema, and drops it once decided", async () => {
    const graph = {
      entryAgent: "lead",
      agents: [
        { name: "lead", model: "demo/lead", subAgents: ["payer"] },
        { name: "payer", model: "demo/payer", tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer" }] },
      ],
      limits: { followUpWindowSeconds: 60 },
    };
    const { runId } = await h.engine.startRun({ graph, task: `message payer: ${transfer(6)}\nanswer: lead done` });
    const [item] = await waiting(runId);
    expect(item?.chain.map((l) => l.agentName), "root first, the asking sub-agent last").toEqual(["lead", "payer"]);
    expect(item?.chain[0]?.runId).toBe(runId);
    expect(item?.runId).not.toBe(runId);
    expect(item?.toolSchema, "built-in tools come with their JSON schema").toMatchObject({ properties: { amount: { type: "number" } } });
    // Usage: the asking run's own model calls, and the tree's counted once each
    // (the lead's row will include the payer's tokens only after the payer replies).
    const rows = await h.db.run.findMany({ where: { rootRunId: runId }, select: { id: true, inputTokens: true, outputTokens: true } });
    const payerRow = rows.find((r) => r.id === item?.runId);
    expect(payerRow?.inputTokens, "the payer has made a model call").toBeGreaterThan(0);
    expect(item?.runUsage).toEqual({ tokens: { inputTokens: payerRow?.inputTokens, outputTokens: payerRow?.outputTokens }, cost: 0 });
    const sum = (key: "inputTokens" | "outputTokens") => rows.reduce((n, r) => n + r[key], 0);
    expect(item?.treeUsage, "demo models cost nothing").toEqual({ tokens: { inputTokens: sum("inputTokens"), outputTokens: sum("outputTokens") }, cost: 0 });

    // Concurrent refreshes share one snapshot and never list the call twice.
    const snapshots = await Promise.all([loadInbox(h.engine, h.db), loadInbox(h.engine, h.db), loadInbox(h.engine, h.db)]);
    for (const s of snapshots) expect(s.items.filter((i) => i.id === item?.id)).toHaveLength(1);

    expect((await loadRunApprovals(h.engine, h.db, item?.runId ?? "")).map((i) => i.id), "the run page lists the same call").toEqual([item?.id]);
    await decideOne(h.engine, approver, { runId: item?.runId ?? "", approvalId: item?.id ?? "", approved: true, editedArguments: { from_account: "operating", to_account: "refunds", amount: 4 } });
    expect(await inboxOf(runId), "the run's own query is the truth, whatever visibility still says").toEqual([]);
    expect((await waitForStatus(h.engine, runId, ["completed"])).output).toBe("lead done");
    const [row] = await listAudit(h.db, { tool: "ledger_transfer", person: approver.email, outcome: "approved" });
    expect(row).toMatchObject({ approvalId: item?.id, agent: "payer", arguments: { amount: 6 }, editedArguments: { amount: 4 }, decidedBy: approver.email });
  });

  it("an expired request leaves the inbox and shows as expired in the audit", async () => {
    const { runId } = await h.engine.startRun({ graph: gated({ expiresInSeconds: 2 }), task: `${transfer(7)}\nanswer: done` });
    const [item] = await waiting(runId);
    await eventually(() => inboxOf(runId), (items) => items.length === 0, 20_000, "the expired request to leave");
    const rows = await listAudit(h.db, { outcome: "expired" });
    expect(rows.find((r) => r.approvalId === item?.id)).toMatchObject({ outcome: "expired", decidedBy: null, reason: "expired" });
  });

  it("a call needing two approvals stays listed with the first endorsement until the second approver", async () => {
    const { runId } = await h.engine.startRun({ graph: gated({ requiredApprovals: 2 }), task: `${transfer(8)}\nanswer: done` });
    const [item] = await waiting(runId);
    const ref = { runId: item?.runId ?? "", approvalId: item?.id ?? "" };
    await decideOne(h.engine, approver, { ...ref, approved: true });
    const [still] = await inboxOf(runId);
    expect(still?.endorsements.map((e) => e.by.email)).toEqual([approver.email]);
    await decideOne(h.engine, admin, { ...ref, approved: true });
    await waitForStatus(h.engine, runId, ["completed"]);
    const outcomes = (await listAudit(h.db, {})).filter((r) => r.approvalId === item?.id).map((r) => r.outcome);
    expect(outcomes.sort()).toEqual(["approved", "endorsed"]);
  });

  it("a bulk decision reports each outcome; a call decided meanwhile names its winner", async () => {
    const runs = await Promise.all([1, 2].map(() => h.engine.startRun({ graph: gated(), task: `${transfer(9)}\nanswer: done` })));
    const items = await Promise.all(runs.map(async ({ runId }) => (await waiting(runId))[0]));
    const refs = items.map((i) => ({ runId: i?.runId ?? "", approvalId: i?.id ?? "" }));
    await decideOne(h.engine, admin, { ...refs[0]!, approved: true });
    const outcomes = await decideMany(h.engine, approver, { items: refs, approved: false, reason: "duplicate" });
    expect(outcomes[0]).toMatchObject({ ok: false, message: expect.stringContaining("already approved by admin@zap.local") });
    expect(outcomes[1]).toMatchObject({ ok: true, status: "rejected" });
  });

  it("says whose each identical call is, who decided in its run before, and what an approved call did", async () => {
    const bo = await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" } });
    const task = (who: string) => `Pay the rent for ${who}\n${transfer(11)}\n${transfer(12)}\nanswer: done`;
    const { runId } = await h.engine.startRun({ graph: gated(), task: task("Bo"), startedBy: { id: bo.id, email: bo.email } });
    const [first] = await waiting(runId);
    expect(first?.identity).toEqual({ graphName: null, version: null, task: "Pay the rent for Bo", startedBy: { email: "builder@zap.local", name: "Bo Builder" } });
    expect(first?.decidedBefore).toEqual([]);
    await decideOne(h.engine, approver, { runId: first?.runId ?? "", approvalId: first?.id ?? "", approved: true });
    const [second] = await eventually(() => inboxOf(runId), (items) => items.length === 1 && items[0]?.id !== first?.id, 20_000, "the second transfer to wait");
    expect(second?.decidedBefore, "the approver decided in this run before: it is theirs too").toEqual([approver.email]);
    const decided = await eventually(() => readRunDecisions(h.db, runId), (d) => d[0]?.result !== null && d[0]?.result !== undefined, 20_000, "the approved transfer's result");
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({ approvalId: first?.id, toolName: "ledger_transfer", status: "approved", decidedBy: approver.email });
    expect(JSON.parse(decided[0]?.result ?? "{}")).toMatchObject({ amount: 11, status: "completed" });
    await decideOne(h.engine, approver, { runId: second?.runId ?? "", approvalId: second?.id ?? "", approved: false, reason: "once is enough" });
  });
});
