// The guardrail screening the workflow runs inline (deterministic checks only:
// the activity-backed ones are covered by worker/engine-tests/guardrails.int.test.ts).
import { describe, expect, it } from "vitest";
import { agentSchema, runLimitsSchema } from "../../lib/agents/schemas";
import { guardrailSchema, type GuardrailInput } from "../../lib/guardrails/schemas";
import type { RunEvent } from "../../lib/contract/types";
import type { EnginePatches } from "./engine-patches";
import { graphHasGuardrails } from "./engine-patches";
import { applyMasks, guardrailsOf, screen, toolIsGuarded, type ScreenContext } from "./guardrails";
import { maskTypedResponse } from "./guardrail-hooks";
import { RunFailure } from "./run-failure";
import { RunState } from "./run-state";

const CARD = "4111 1111 1111 1111";

const guardrail = (input: Partial<GuardrailInput>) => guardrailSchema.parse({ name: "g", kind: "input", check: { type: "pii", detectors: ["card"] }, action: "block", ...input });

function context(): ScreenContext {
  const state = new RunState();
  state.patches = { guardrails: true } as EnginePatches;
  return { state, limits: runLimitsSchema.parse({}), agentModel: "demo/test", task: "t", parentSpanId: null };
}

const events = (c: ScreenContext) => c.state.outbox.events.filter((e): e is Extract<RunEvent, { type: "guardrail_checked" }> => e.type === "guardrail_checked");

describe("screening a text", () => {
  it("blocks with guardrail_tripped naming the guardrail and its kind, never the text", async () => {
    const c = context();
    const failure = await screen([guardrail({ name: "no-cards" })], `card ${CARD}`, c).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RunFailure);
    expect((failure as RunFailure).reason).toBe("guardrail_tripped");
    expect((failure as RunFailure).message).toMatch(/^guardrail "no-cards" \(input, pii\) tripped: /);
    expect((failure as RunFailure).message).not.toContain("4111");
    const span = [...c.state.outbox.spans.values()][0];
    expect(span).toMatchObject({ kind: "guardrail", name: "no-cards", status: "error", attributes: { verdict: "tripped", detectors: "card", action: "block" } });
    expect(events(c)).toMatchObject([{ guardrail: "no-cards", tripped: true, detectors: ["card"], spanId: span?.id }]);
    expect(JSON.stringify(c.state.outbox)).not.toContain("4111");
  });

  it("masks the findings; later guardrails see the masked text; log only records", async () => {
    const c = context();
    const result = await screen(
      [guardrail({ name: "mask-cards", action: "mask" }), guardrail({ name: "watch-cards", action: "log" }), guardrail({ name: "long", action: "log", check: { type: "max_length", chars: 5 } })],
      `pay ${CARD} now`,
      c,
    );
    expect(result).toMatchObject({ outcome: "pass", text: "pay [redacted card] now" });
    expect(events(c).map((e) => [e.guardrail, e.tripped])).toEqual([
      ["mask-cards", true],
      ["watch-cards", false],
      ["long", true],
    ]);
    // A logged trip is no error on the trace.
    expect([...c.state.outbox.spans.values()].map((s) => s.status)).toEqual(["ok", "ok", "ok"]);
  });

  it("passes a clean text unchanged", async () => {
    await expect(screen([guardrail({})], "no numbers here", context())).resolves.toEqual({ outcome: "pass", text: "no numbers here", masks: [] });
  });

  it("answers inbox for a tool_call guardrail and rewrite for an output one; elsewhere those actions block (fail closed)", async () => {
    const inbox = guardrail({ name: "ask", kind: "tool_call", action: "inbox" });
    await expect(screen([inbox], CARD, context())).resolves.toMatchObject({ outcome: "inbox", guardrail: { name: "ask" }, reason: "The text contains a card number." });
    const rewrite = guardrail({ name: "redo", kind: "output", action: "rewrite" });
    await expect(screen([rewrite], CARD, context())).resolves.toMatchObject({ outcome: "rewrite", guardrail: { name: "redo" } });
    await expect(screen([guardrail({ kind: "input", action: "inbox" })], CARD, context())).rejects.toMatchObject({ reason: "guardrail_tripped" });
    await expect(screen([guardrail({ kind: "tool_result", action: "rewrite" })], CARD, context())).rejects.toMatchObject({ reason: "guardrail_tripped" });
  });

  it("a mask with nothing to mask (a whole-text verdict) blocks", async () => {
    const failure = screen([guardrail({ action: "mask", check: { type: "max_length", chars: 3 } })], "too long", context());
    await expect(failure).rejects.toMatchObject({ reason: "guardrail_tripped" });
    await expect(failure).rejects.toThrow(/nothing it could mask/);
  });
});

describe("which guardrails apply", () => {
  const agent = agentSchema.parse({
    name: "a",
    guardrails: [guardrail({ name: "in" }), guardrail({ name: "transfers", kind: "tool_call", tools: ["ledger_*"] }), guardrail({ name: "results", kind: "tool_result" })],
  });

  it("selects by kind and by the tools' globs; none without the patch", () => {
    expect(guardrailsOf(agent, "input", { guardrails: true }).map((g) => g.name)).toEqual(["in"]);
    expect(guardrailsOf(agent, "tool_call", { guardrails: true }, "ledger_transfer").map((g) => g.name)).toEqual(["transfers"]);
    expect(guardrailsOf(agent, "tool_call", { guardrails: true }, "calculator")).toEqual([]);
    expect(guardrailsOf(agent, "tool_result", { guardrails: true }, "calculator").map((g) => g.name)).toEqual(["results"]);
    expect(guardrailsOf(agent, "input", { guardrails: false })).toEqual([]);
    expect(toolIsGuarded(agent, "calculator", { guardrails: true })).toBe(true);
    expect(toolIsGuarded(agent, "calculator", { guardrails: false })).toBe(false);
  });

  it("asks the patch only for graphs that hold a guardrail (older agents have no field)", () => {
    expect(graphHasGuardrails({ agents: [agent] } as never)).toBe(true);
    expect(graphHasGuardrails({ agents: [{ name: "old" }] } as never)).toBe(false);
    expect(graphHasGuardrails({ agents: [agentSchema.parse({ name: "b" })] } as never)).toBe(false);
  });
});

describe("masking a typed answer", () => {
  const mask = [guardrail({ action: "mask", kind: "output" })];

  it("masks the text, the return call's arguments and the data alike", () => {
    const data = { summary: `card ${CARD}` };
    const raw = JSON.stringify(data);
    expect(applyMasks(mask, raw)).toBe('{"summary":"card [redacted card]"}');
    const masked = maskTypedResponse(
      { content: `see ${CARD}`, toolCalls: [{ id: "c1", name: "return", arguments: raw }], answer: { source: "return", ok: true, data, raw, callId: "c1" } } as never,
      mask,
    );
    expect(masked?.content).toBe("see [redacted card]");
    expect(masked?.toolCalls[0]?.arguments).toBe('{"summary":"card [redacted card]"}');
    expect(masked?.answer).toMatchObject({ ok: true, data: { summary: "card [redacted card]" }, raw: '{"summary":"card [redacted card]"}' });
  });
});
