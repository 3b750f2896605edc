// demo/judge grades by keywords, offline and deterministically, in the reply
// format the experiment's judge scorer reads.
import { describe, expect, it } from "vitest";
import { buildJudgePrompt, createModelJudge, scoreJudge } from "../../lib/experiments/scoring/judge";
import { createDemoJudge, judgeReply } from "./demo-judge";
import { createModelRegistry } from "./registry";
import type { InferenceRequest } from "./types";

const ask = (output: string | null, expected: string | null, rubric = "The answer gives the balance.") => judgeReply(buildJudgePrompt({ rubric, task: "Balance of account 42?", output, expected }));

describe("demo/judge", () => {
  it("scores by the share of the expected answer's content words the answer contains", () => {
    expect(ask("The balance of account 42 is 120 EUR.", "The balance is 120 EUR")).toBe("score: 1\nreason: the answer contains all 3 expected term(s).");
    expect(ask("Account 42 holds 120 EUR.", "The balance is 120 EUR")).toBe("score: 0.67\nreason: the answer contains 2 of 3 expected term(s); missing: balance.");
  });

  it("adds the terms the rubric quotes, phrases included, and matches single words by word", () => {
    expect(ask("We sent a refund to Europe.", null, "Must mention 'EUR' and \"refund issued\".")).toBe(
      "score: 0\nreason: the answer contains 0 of 2 expected term(s); missing: eur, refund issued.",
    );
    expect(ask("Refund issued: 120 EUR.", null, "Must mention 'EUR' and \"refund issued\".")).toMatch(/^score: 1\n/);
  });

  it("no answer scores 0; nothing to look for passes any answer", () => {
    expect(ask(null, "120 EUR")).toBe("score: 0\nreason: the agent gave no answer.");
    expect(ask("anything", null)).toMatch(/^score: 1\nreason: the rubric quotes no terms/);
  });

  it("is deterministic and answers through the ModelProvider interface", async () => {
    const provider = createDemoJudge();
    const prompt = buildJudgePrompt({ rubric: "r", task: "t", output: "120 EUR", expected: "120 EUR" });
    const request: InferenceRequest = { model: "demo/judge", agentName: "judge", messages: [{ role: "system", content: "grade" }, { role: "user", content: prompt }], tools: [], temperature: 0, maxOutputTokens: 200, attempt: 1 };
    const first = await provider.generate(request, "judge");
    const second = await provider.generate(request, "judge");
    expect(first).toEqual(second);
    expect(first.content).toBe("score: 1\nreason: the answer contains all 2 expected term(s).");
    expect(first.usage.inputTokens).toBeGreaterThan(0);
  });

  it("a prompt it cannot read gives a reply the judge scorer reports as unreadable", async () => {
    expect(judgeReply("just grade this")).toMatch(/^I can only grade prompts built by the experiment judge/);
    const judge = createModelJudge(() => Promise.resolve(judgeReply("just grade this")));
    const score = await scoreJudge(
      { runId: "r", status: "completed", output: "x", outputData: null, errorReason: null, toolCalls: [], editedSteps: [], routing: [], plan: null, latencyMs: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
      { input: { task: "t" }, expected: {} },
      { rubric: "r" },
      judge,
    );
    expect(score.pass).toBeNull();
    expect(score.detail).toMatch(/^judge reply unreadable/);
  });

  it("end to end through createModelJudge with the demo provider", async () => {
    const provider = createDemoJudge();
    const judge = createModelJudge(async ({ model, system, prompt }) => {
      const response = await provider.generate({ model, agentName: "judge", messages: [{ role: "system", content: system }, { role: "user", content: prompt }], tools: [], temperature: 0, maxOutputTokens: 200, attempt: 1 }, "judge");
      return response.content;
    });
    await expect(judge({ rubric: "Gives the balance.", model: "demo/judge", task: "Balance?", output: "It is 120 dollars", expected: "120 EUR" })).resolves.toEqual({
      score: 0.5,
      reason: "the answer contains 1 of 2 expected term(s); missing: eur.",
    });
  });
});

describe("model registry", () => {
  it("resolves demo/judge to the judge, other demo models to the demo assistant", async () => {
    const registry = createModelRegistry({
      models: {
        demoLatencyMs: 0,
        prices: {},
        defaultModel: "demo/assistant",
        openai: {},
        anthropic: {},
        openaiCompatible: { name: "local", structuredOutputs: false, toolCallsInText: false, visionModels: [] },
      },
    });
    const prompt = buildJudgePrompt({ rubric: "r", task: "t", output: "120 EUR", expected: "120 EUR" });
    const request: InferenceRequest = { model: "demo/judge", agentName: "judge", messages: [{ role: "user", content: prompt }], tools: [], temperature: 0, maxOutputTokens: 200, attempt: 1 };
    const judge = registry.resolve("demo/judge");
    expect((await judge.provider.generate(request, judge.modelName)).content).toMatch(/^score: 1\n/);
    const assistant = registry.resolve("demo/assistant");
    expect((await assistant.provider.generate({ ...request, model: "demo/assistant" }, assistant.modelName)).content).not.toMatch(/^score:/);
  });
});
