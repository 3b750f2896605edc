// demo/judge: an offline, deterministic LLM-as-judge for experiments and tests.
// It reads the sectioned prompt lib/experiments/scoring/judge.ts builds and
// scores the agent's answer by the share of keywords it contains: the terms the
// rubric quotes ('refund', "EUR") and the content words of the expected answer.
// The reply has the shape a real judge is asked for: `score:` and `reason:` lines.
import { readJudgePrompt } from "../../lib/experiments/scoring/judge";
import type { InferenceRequest, InferenceResponse, ModelProvider } from "./types";

export const DEMO_JUDGE_MODEL_NAME = "judge";

/** Short words that carry no meaning of their own in an answer. */
const STOPWORDS = new Set(
  "the a an and or but of to in on at for with by from is are was were be been it its this that these those as your you our we they their his her has have had do does did not no yes can will would should could may might must than then there here what which who whom how why when where".split(
    " ",
  ),
);

/** Content words: lowercase letters/digits runs, numbers kept at any length, other words from 3 letters, stopwords dropped. */
export function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.,]\d+)*/gu) ?? [];
  return [...new Set(words.filter((word) => /^\d/.test(word) || (word.length >= 3 && !STOPWORDS.has(word))))];
}

/** Terms a rubric quotes: 'refund', "120 EUR", “EUR”. */
export function quotedTerms(rubric: string): string[] {
  return [...rubric.matchAll(/["'“‘]([^"'”’\n]{1,80})["'”’]/g)].map((match) => (match[1] ?? "").trim().toLowerCase()).filter((term) => term.length > 0);
}

/** The judge's verdict on one prompt, as reply text. */
export function judgeReply(prompt: string): string {
  const question = readJudgePrompt(prompt);
  if (!question) return "I can only grade prompts built by the experiment judge (### RUBRIC, ### TASK, ### EXPECTED ANSWER, ### AGENT ANSWER).";
  if (question.output === null || question.output.trim() === "") return "score: 0\nreason: the agent gave no answer.";
  const answer = question.output.toLowerCase();
  const answerWords = new Set(contentWords(question.output));
  const keywords = [...new Set([...quotedTerms(question.rubric), ...(question.expected ? contentWords(question.expected) : [])])];
  if (keywords.length === 0) return "score: 1\nreason: the rubric quotes no terms and there is no expected answer, so any answer passes.";
  // A quoted phrase may span words: look for it in the text; single words by word, so "eur" does not match "europe".
  const found = keywords.filter((keyword) => (/\s/.test(keyword) ? answer.includes(keyword) : answerWords.has(keyword)));
  const missing = keywords.filter((keyword) => !found.includes(keyword));
  const score = Math.round((found.length / keywords.length) * 100) / 100;
  const reason =
    missing.length === 0
      ? `the answer contains all ${keywords.length} expected term(s).`
      : `the answer contains ${found.length} of ${keywords.length} expected term(s); missing: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? " …" : ""}.`;
  return `score: ${score}\nreason: ${reason}`;
}

const estimateTokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

export function createDemoJudge(): ModelProvider {
  return {
    generate(request: InferenceRequest): Promise<InferenceResponse> {
      const prompt = request.messages.findLast((message) => message.role === "user")?.content ?? "";
      const reply = judgeReply(prompt);
      const inputTokens = request.messages.reduce((sum, message) => sum + estimateTokens(message.content ?? ""), 0);
      return Promise.resolve({ content: reply, toolCalls: [], usage: { inputTokens, outputTokens: estimateTokens(reply) }, finishReason: "stop" });
    },
  };
}
