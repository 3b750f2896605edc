// Custom guardrail checks backed by an admin-registered MCP tool (issue 40 §1),
// on the real engine and the real demo MCP server (stdio, as the seed registers
// it): the seed offers kb's screen_text as a check; an input guardrail naming
// "kb__screen_text" blocks a confidential task and lets a clean one through; a
// tool the admin did not offer as a check (create_ticket, which a model may
// call) is refused where the run starts; and a check the admin withdraws after
// a run started trips the next time it runs (fail closed), without calling it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { testProviders } from "../../scripts/test-support/databases";
import { updateRegisteredMcpServer } from "../../scripts/test-support/mcp";
import type { RunEvent, TraceNode } from "../../lib/contract/types";
import { ValidationError } from "../../lib/errors";

const providers = await testProviders();

type GuardrailEvent = Extract<RunEvent, { type: "guardrail_checked" }>;
const flat = (nodes: TraceNode[]): TraceNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);

const screen = { name: "screen", kind: "input", check: { type: "custom", check: "kb__screen_text" }, action: "block" };

describe.each(providers)("guardrail checks backed by an MCP tool on $provider", ({ available, create }) => {
  let h: EngineHarness;

  beforeAll(async () => {
    if (!available) return;
    h = await startEngineHarness({ database: await create() });
  });
  afterAll(async () => {
    if (available) await h.stop();
  });

  const guardrailEvents = async (runId: string) => (await h.engine.getEvents(runId)).filter((e): e is GuardrailEvent => e.type === "guardrail_checked");

  it.skipIf(!available)("the seeded kb server offers screen_text as a check, and only that tool", async () => {
    const row = await h.db.mcpServer.findUniqueOrThrow({ where: { name: "kb" } });
    expect(JSON.parse(row.guardrailTools)).toEqual(["screen_text"]);
  });

  it.skipIf(!available)("blocks a task the MCP tool finds confidential, lets a clean one through, and records each verdict as a guardrail span", async () => {
    const graph = singleAgentGraph({ guardrails: [screen] });
    const blocked = await h.engine.startRun({ graph, task: "Summarise this CONFIDENTIAL memo\nanswer: done" });
    const failed = await waitForStatus(h.engine, blocked.runId, ["failed"]);
    expect(failed.error?.reason).toBe("guardrail_tripped");
    expect(failed.error?.message).toMatch(/guardrail "screen" \(input, custom\)/);
    const [tripped] = await guardrailEvents(blocked.runId);
    expect(tripped).toMatchObject({ guardrail: "screen", check: "custom", tripped: true, reason: 'the text is marked "confidential"' });
    const span = flat(await h.engine.getTrace(blocked.runId)).find((s) => s.kind === "guardrail");
    expect(span).toMatchObject({ name: "screen", status: "error", attributes: { verdict: "tripped", check: "custom" } });
    expect((await h.engine.getEvents(blocked.runId)).some((e) => e.type === "inference_started"), "no model was asked").toBe(false);

    const clean = await h.engine.startRun({ graph, task: "What is the refund policy?\nanswer: 30 days" });
    const completed = await waitForStatus(h.engine, clean.runId, ["completed"]);
    expect(completed.output).toBe("30 days");
    const [passed] = await guardrailEvents(clean.runId);
    expect(passed).toMatchObject({ guardrail: "screen", tripped: false, reason: "no confidentiality marker" });
  });

  it.skipIf(!available)("a tool the admin did not offer as a check is refused where the run starts, naming the guardrail's field", async () => {
    const graph = singleAgentGraph({ guardrails: [{ ...screen, check: { type: "custom", check: "kb__create_ticket" } }] });
    const before = await h.db.run.count();
    const refusal = await h.engine.startRun({ graph, task: "anything\nanswer: no" }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ValidationError);
    expect((refusal as ValidationError).issues).toEqual([
      { path: "agents[0].guardrails[0].check.check", message: 'the MCP server "kb" does not offer "create_ticket" as a guardrail check (offered: screen_text); an admin offers checks in Admin › MCP servers' },
    ]);
    expect(await h.db.run.count(), "nothing started").toBe(before);
  });

  it.skipIf(!available)("a check the admin withdraws mid-run trips on the next follow-up (fail closed), and the tool is never called for it", async () => {
    const graph = singleAgentGraph({ guardrails: [screen] });
    const { runId } = await h.engine.startRun({ graph, task: "First question\nanswer: first" });
    await waitForStatus(h.engine, runId, ["completed"]);
    await updateRegisteredMcpServer(h, "kb", { guardrailTools: [] });
    try {
      // The worker re-reads a registration at most 2 s old.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      await h.engine.sendMessage(runId, "Second question\nanswer: second");
      const events = await eventually(() => guardrailEvents(runId), (list) => list.length === 2, 30_000, "the follow-up's check");
      expect(events[1]).toMatchObject({ guardrail: "screen", tripped: true, reason: 'MCP server "kb" does not offer screen_text as a guardrail check.' });
      expect((await h.engine.getEvents(runId)).some((e) => e.type === "run_completed" && e.output === "second"), "the follow-up was not answered").toBe(false);
    } finally {
      await updateRegisteredMcpServer(h, "kb", { guardrailTools: ["screen_text"] });
    }
  });
});
