import { describe, expect, it } from "vitest";
import { item, observed } from "./test-fixtures";
import { buildJudgePrompt, createModelJudge, parseJudgeReply, readJudgePrompt, scoreJudge } from "./judge";
import type { JudgeFn } from "./types";

describe("judge reply parsing", () => {
  it.each([
    ["score: 0.8\nreason: mentions the balance", 0.8, "mentions the balance"],
    ["**Score:** 0.25\n**Reason:** wrong account", 0.25, "wrong account"],
    ['{"score": 1, "reason": "exact"}', 1, "exact"],
    ["I think... Score = 7/10. Reason: close enough", 0.7, "close enough"],
    ["score: 60%", 0.6, "the judge gave no reason"],
    ["Score: .5 — reason: partly right", 0.5, "partly right"],
  ])("reads %j", (reply, score, reason) => {
    expect(parseJudgeReply(reply)).toEqual({ score, reason });
  });

  it.each([[null], [""], ["looks good to me"], ["score: 7"], ["score: -0.1"], ["score: high"]])("refuses %j", (reply) => {
    expect(parseJudgeReply(reply)).toBeNull();
  });
});

describe("judge prompt", () => {
  it("reads back what it wrote, including absent answers", () => {
    const question = { rubric: "Mentions the balance in EUR.", task: "Balance of 42?", output: null, expected: "120 EUR" };
    expect(readJudgePrompt(buildJudgePrompt(question))).toEqual(question);
    expect(readJudgePrompt("hello")).toBeNull();
  });
});

describe("judge scorer", () => {
  const config = { rubric: "Mentions the balance." };

  it("passes at 0.5 or more and passes the default model, task, output and expected answer", async () => {
    const seen: Parameters<JudgeFn>[0][] = [];
    const judge: JudgeFn = (input) => {
      seen.push(input);
      return Promise.resolve({ score: 0.5, reason: "half there" });
    };
    const score = await scoreJudge(observed({ output: "120" }), item({ output: "120 EUR" }, "Balance?"), config, judge);
    expect(score).toMatchObject({ scorer: "judge", value: 0.5, pass: true, detail: "0.50: half there" });
    expect(seen[0]).toEqual({ rubric: "Mentions the balance.", model: "demo/judge", task: "Balance?", output: "120", expected: "120 EUR" });
  });

  it("a malformed reply is an undecided score, never a crash", async () => {
    const judge = createModelJudge(() => Promise.resolve("I would rather not say."));
    const score = await scoreJudge(observed({ output: "x" }), item({}), config, judge);
    expect(score).toMatchObject({ value: 0, pass: null });
    expect(score.detail).toMatch(/^judge reply unreadable: "I would rather not say\."/);
    const empty = await scoreJudge(observed({ output: "x" }), item({}), config, createModelJudge(() => Promise.resolve(null)));
    expect(empty.detail).toBe("judge reply unreadable (empty reply)");
  });

  it("a judge error other than an unreadable reply propagates (the engine retries the model call)", async () => {
    const judge = createModelJudge(() => Promise.reject(new Error("model down")));
    await expect(scoreJudge(observed({ output: "x" }), item({}), config, judge)).rejects.toThrow("model down");
  });

  it("a judge that never answers is cut off at its time bound: the call is aborted and the score is undecided", async () => {
    let aborted = false;
    const judge = createModelJudge(
      ({ signal }) =>
        new Promise<string | null>(() => {
          signal.addEventListener("abort", () => (aborted = true));
        }),
      { timeoutMs: 50 },
    );
    const score = await scoreJudge(observed({ output: "x" }), item({}), config, judge);
    expect(score).toMatchObject({ scorer: "judge", value: 0, pass: null, detail: "the judge did not answer within 50 ms" });
    expect(aborted, "the model call was told to stop").toBe(true);
  });

  it("createModelJudge sends the system prompt and the sectioned question", async () => {
    let sent = "";
    const judge = createModelJudge(({ prompt }) => {
      sent = prompt;
      return Promise.resolve("score: 1\nreason: fine");
    });
    await judge({ rubric: "R", model: "demo/judge", task: "T", output: "O", expected: null });
    expect(sent).toBe("### RUBRIC\nR\n\n### TASK\nT\n\n### EXPECTED ANSWER\n(none given)\n\n### AGENT ANSWER\nO");
  });
});
