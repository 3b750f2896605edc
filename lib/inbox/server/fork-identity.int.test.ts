// Issue 36 §2: the inbox card of a call inside a fork looked like an ordinary
// run of "<graph> vN" with the origin's task. On the real engine: a lead whose
// payer sub-agent asks for a gated transfer; the origin's call names the saved
// version and nothing else; a fork of it at the lead's calculator call, with
// an edited result and another model, asks again from the payer's sub-run,
// and that card says what it is a fork of, at which step, which step was
// written by whom, and that it runs an unsaved variant of the saved version.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../../scripts/test-support/engine-harness";
import type { SessionUser } from "../../auth/server/session";
import type { Role } from "../../access/roles";
import { saveAgentVersion } from "../../agents/repository";
import { readSpans } from "../../run-ledger/read";
import { forkRunWith } from "../../forks/server/fork-run";
import { forkEditsLabel, forkLabel, graphLabel } from "../identity";
import { decideOne } from "./decide";
import { loadInbox } from "./inbox";

let h: EngineHarness;
let builder: SessionUser;
let approver: SessionUser;

beforeAll(async () => {
  h = await startEngineHarness();
  const person = async (email: string): Promise<SessionUser> => {
    const u = await h.db.user.findUniqueOrThrow({ where: { email } });
    return { id: u.id, email: u.email, name: u.name, role: u.role as Role };
  };
  builder = await person("builder@zap.local");
  approver = await person("approver@zap.local");
});
afterAll(async () => h?.stop());

const inboxOf = async (rootRunId: string) => (await loadInbox(h.engine, h.db)).items.filter((i) => i.rootRunId === rootRunId);
const waiting = async (rootRunId: string) => (await eventually(() => inboxOf(rootRunId), (items) => items.length === 1, 30_000, `a call waiting in ${rootRunId}`))[0]!;

describe("the inbox card of a fork's call", () => {
  it("says, for a call in a fork's sub-run, what it is a fork of, where, what was edited by whom, and names the unsaved variant", async () => {
    const graph = `fork-inbox-${randomUUID().slice(0, 8)}`;
    await saveAgentVersion(
      h.db,
      graph,
      {
        entryAgent: "lead",
        agents: [
          { name: "lead", model: "demo/lead", tools: ["calculator"], subAgents: ["payer"] },
          { name: "payer", model: "demo/payer", tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer" }] },
        ],
        limits: { followUpWindowSeconds: 0 },
      },
      { createdById: builder.id },
    );
    const task = `tool calculator {"expression":"2+2"}\nmessage payer: tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":13}\nanswer: lead done`;
    const { runId: origin } = await h.engine.startRun({ graphName: graph, task, startedBy: { id: builder.id, email: builder.email } });

    const asked = await waiting(origin);
    expect(asked.runId, "the payer's sub-run asks").not.toBe(origin);
    expect(asked.identity?.fork, "an ordinary run is no fork").toBeUndefined();
    expect(graphLabel(asked.identity)).toBe(`${graph} v1`);
    await decideOne(h.engine, approver, { runId: asked.runId, approvalId: asked.id, approved: false, reason: "not in a test" });
    await waitForStatus(h.engine, origin, ["completed"], 60_000);

    const calculator = (await readSpans(h.db, origin)).find((s) => s.kind === "tool" && s.name === "calculator");
    if (!calculator) throw new Error("the origin has no calculator call");
    const forked = await forkRunWith({ db: h.db, engine: h.engine }, { runId: origin, spanId: calculator.id, editedToolResult: "5", model: "demo/other" }, builder);

    const again = await waiting(forked.runId);
    expect(again.runId, "the fork's payer sub-run asks, live after the fork point").not.toBe(forked.runId);
    expect(again.identity?.task, "a fork repeats its origin's task").toBe(asked.identity?.task);
    expect(again.identity?.fork).toMatchObject({ originRunId: origin, spanId: calculator.id, step: "tool calculator", edits: [{ step: "tool calculator", kind: "tool_result", by: builder.email, inherited: false }] });
    expect(forkLabel(again.identity!.fork!)).toBe(`fork of ${origin.slice(-8)} at tool calculator (${calculator.id})`);
    expect(forkEditsLabel(again.identity!.fork!)).toMatch(/^tool calculator result, by builder@zap\.local at \d{4}-/);
    expect(again.identity).toMatchObject({ graphName: graph, version: null, variantOf: 1 });
    expect(graphLabel(again.identity), "another model: never the saved version's name").toBe(`unsaved variant of ${graph} v1`);
    await decideOne(h.engine, approver, { runId: again.runId, approvalId: again.id, approved: false, reason: "not in a test" });
    await waitForStatus(h.engine, forked.runId, ["completed"], 60_000);
  });
});
