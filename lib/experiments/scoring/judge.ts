// LLM-as-judge: the rubric prompt, the reading of the judge's reply, and the
// scorer. The prompt has fixed section markers so the offline demo judge
// (worker/models/demo-judge.ts) can read it back; a real model just reads it.
import { DEFAULT_JUDGE_MODEL, type JudgeFn, type ObservedRun, type Score, type ScoredItem } from "./types";

export const JUDGE_SYSTEM_PROMPT =
  "You grade an AI agent's answer against a rubric. Reply with exactly two lines:\nscore: <a number from 0 to 1>\nreason: <one sentence>";

const SECTIONS = ["RUBRIC", "TASK", "EXPECTED ANSWER", "AGENT ANSWER"] as const;
type Section = (typeof SECTIONS)[number];
/** Cap per section: a judge prompt stays small even for long answers. */
const SECTION_MAX = 12_000;

export interface JudgeQuestion {
  rubric: string;
  task: string;
  output: string | null;
  expected: string | null;
}

function clip(text: string): string {
  return text.length > SECTION_MAX ? `${text.slice(0, SECTION_MAX)}\n[… cut at ${SECTION_MAX} characters]` : text;
}

/** The user message sent to the judge model. */
export function buildJudgePrompt(question: JudgeQuestion): string {
  const body: Record<Section, string> = {
    RUBRIC: question.rubric,
    TASK: question.task,
    "EXPECTED ANSWER": question.expected ?? "(none given)",
    "AGENT ANSWER": question.output ?? "(the agent gave no answer)",
  };
  return SECTIONS.map((section) => `### ${section}\n${clip(body[section])}`).join("\n\n");
}

/** The sections of a prompt built by buildJudgePrompt (null when it is not one). */
export function readJudgePrompt(prompt: string): JudgeQuestion | null {
  const found = new Map<Section, string>();
  const pattern = /^### (RUBRIC|TASK|EXPECTED ANSWER|AGENT ANSWER)\n/gm;
  const marks = [...prompt.matchAll(pattern)];
  marks.forEach((mark, index) => {
    const start = (mark.index ?? 0) + mark[0].length;
    const end = marks[index + 1]?.index ?? prompt.length;
    found.set(mark[1] as Section, prompt.slice(start, end).replace(/\n+$/, ""));
  });
  const rubric = found.get("RUBRIC");
  const task = found.get("TASK");
  if (rubric === undefined || task === undefined) return null;
  const expected = found.get("EXPECTED ANSWER");
  const output = found.get("AGENT ANSWER");
  return {
    rubric,
    task,
    expected: expected === undefined || expected === "(none given)" ? null : expected,
    output: output === undefined || output === "(the agent gave no answer)" ? null : output,
  };
}

/**
 * Reads `score: 0.7` (or 7/10, 70 %) and `reason: …` from a judge's reply,
 * tolerating markdown, JSON and chatter around them. Null when no score in 0..1
 * can be read.
 */
export function parseJudgeReply(reply: string | null): { score: number; reason: string } | null {
  if (!reply) return null;
  const text = reply.replace(/[*_`]/g, "");
  const match = /"?score"?\s*[:=]\s*"?(-?(?:\d+(?:\.\d+)?|\.\d+))\s*(%|\/\s*(\d+(?:\.\d+)?))?/i.exec(text);
  if (!match) return null;
  let score = Number(match[1]);
  if (match[2] === "%") score /= 100;
  else if (match[3] !== undefined) score /= Number(match[3]);
  if (!Number.isFinite(score) || score < 0 || score > 1) return null;
  const reasonMatch = /"?reason"?\s*[:=]\s*"?([^\n"]+)/i.exec(text);
  const reason = reasonMatch?.[1]?.trim() || "the judge gave no reason";
  return { score, reason };
}

/** Raised by a judge whose reply carries no readable score; the scorer turns it into an undecided score. */
export class JudgeReplyUnreadableError extends Error {
  constructor(readonly reply: string | null) {
    super("judge reply unreadable");
    this.name = "JudgeReplyUnreadableError";
  }
}

/** How long one judge call may take: a builder picks the judge's model and rubric, so its time is bounded like any user-supplied evaluation. */
export const JUDGE_TIMEOUT_MS = 60_000;

/** Raised when the judge has not answered within its time; the scorer turns it into an undecided score. */
export class JudgeTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the judge did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`);
    this.name = "JudgeTimeoutError";
  }
}

/**
 * A JudgeFn over any text model: `complete` sends the system prompt and the
 * user message to `model` and returns the reply text. The worker wires it to
 * its model registry (default model demo/judge). A call still going after
 * `timeoutMs` is aborted through `signal`, and given up on even if the model
 * ignores the signal.
 */
export function createModelJudge(
  complete: (request: { model: string; system: string; prompt: string; signal: AbortSignal }) => Promise<string | null>,
  { timeoutMs = JUDGE_TIMEOUT_MS }: { timeoutMs?: number } = {},
): JudgeFn {
  return async ({ rubric, model, task, output, expected }) => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new JudgeTimeoutError(timeoutMs));
      }, timeoutMs);
    });
    let reply: string | null;
    try {
      reply = await Promise.race([complete({ model, system: JUDGE_SYSTEM_PROMPT, prompt: buildJudgePrompt({ rubric, task, output, expected }), signal: abort.signal }), timedOut]);
    } finally {
      clearTimeout(timer);
    }
    const parsed = parseJudgeReply(reply);
    if (!parsed) throw new JudgeReplyUnreadableError(reply);
    return parsed;
  };
}

/** The judge scorer: pass at 0.5 or more. An unreadable reply is an undecided score, never a failure of the item; other judge errors (model down) propagate so the caller can retry. */
export async function scoreJudge(run: ObservedRun, item: ScoredItem, config: { rubric: string; model?: string }, judge: JudgeFn): Promise<Score> {
  const scorer = "judge";
  const output = run.output ?? (run.outputData !== undefined && run.outputData !== null ? JSON.stringify(run.outputData) : null);
  const expectedData = item.expected.outputData;
  const expected = item.expected.output ?? (expectedData !== undefined && expectedData !== null ? JSON.stringify(expectedData) : null);
  let verdict: { score: number; reason: string };
  try {
    verdict = await judge({ rubric: config.rubric, model: config.model ?? DEFAULT_JUDGE_MODEL, task: item.input.task, output, expected });
  } catch (error) {
    if (error instanceof JudgeReplyUnreadableError) {
      const excerpt = error.reply ? `: ${JSON.stringify(error.reply.slice(0, 120))}` : " (empty reply)";
      return { scorer, value: 0, pass: null, detail: `judge reply unreadable${excerpt}` };
    }
    if (error instanceof JudgeTimeoutError) return { scorer, value: 0, pass: null, detail: error.message };
    throw error;
  }
  if (!Number.isFinite(verdict.score) || verdict.score < 0 || verdict.score > 1) {
    return { scorer, value: 0, pass: null, detail: `judge reply unreadable: score ${String(verdict.score)} is not in 0..1` };
  }
  return { scorer, value: verdict.score, pass: verdict.score >= 0.5, detail: `${verdict.score.toFixed(2)}: ${verdict.reason}` };
}
