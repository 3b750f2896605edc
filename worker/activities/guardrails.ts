// The guardrail checks that cannot run in workflow code (worker/workflows/guardrails.ts
// runs the deterministic ones inline): a JSON schema (Ajv), a model judge with a
// rubric (any configured model; the demo judge grades offline), and the
// admin-registered custom checks (built-in functions, never user code). One
// regular activity: its result is an event of its own in the run's history, so a
// worker killed mid-check retries the check and the run records it once.
import { Context } from "@temporalio/activity";
import type { GuardrailCheck, GuardrailKind, GuardrailVerdict } from "../../lib/guardrails/schemas";
import { evaluateJsonSchemaCheck } from "../../lib/guardrails/checks/json-schema";
import { buildJudgePrompt, JUDGE_SYSTEM_PROMPT, JUDGE_TIMEOUT_MS, parseJudgeReply } from "../../lib/experiments/scoring/judge";
import { DEFAULT_JUDGE_MODEL } from "../../lib/experiments/scoring/types";
import type { TokenUsage } from "../../lib/contract/types";
import type { ModelRegistry } from "../models/registry";
import { runCustomCheck, type McpCheckCaller } from "./guardrail-custom";

const JUDGE_HEARTBEAT_MS = 5_000;

export interface GuardrailCheckInput {
  runId: string;
  guardrail: { name: string; kind: GuardrailKind; check: GuardrailCheck };
  /** The text checked: the task or a message, the answer, a call's arguments or its result. */
  text: string;
  /** The agent's own model: the judge's when the check names none (a demo agent's judge is demo/judge). */
  agentModel: string;
  /** What the agent was asked (the judge reads it beside the text). */
  task: string;
}

export interface GuardrailCheckOutput {
  verdict: GuardrailVerdict;
  /** A judge's model call: its model and tokens (counted in the run's usage and budget like any model call). */
  model?: string;
  usage?: TokenUsage;
  /** The check's own time by the worker's clock. */
  latencyMs: number;
}

/** The model a judge check calls: its own, else the agent's; the demo chat model cannot grade, so demo agents get the demo judge. */
export function judgeModelOf(check: { model?: string }, agentModel: string): string {
  if (check.model) return check.model;
  return agentModel.startsWith("demo/") ? DEFAULT_JUDGE_MODEL : agentModel;
}

async function judge(models: ModelRegistry, check: Extract<GuardrailCheck, { type: "judge" }>, input: GuardrailCheckInput): Promise<Omit<GuardrailCheckOutput, "latencyMs">> {
  const model = judgeModelOf(check, input.agentModel);
  const { provider, modelName } = models.resolve(model);
  const context = Context.current();
  const beat = setInterval(() => context.heartbeat(), JUDGE_HEARTBEAT_MS);
  try {
    const response = await provider.generate(
      {
        model,
        agentName: "guardrail-judge",
        messages: [
          { role: "system", content: JUDGE_SYSTEM_PROMPT },
          { role: "user", content: buildJudgePrompt({ rubric: check.rubric, task: input.task, output: input.text, expected: null }) },
        ],
        tools: [],
        temperature: 0,
        maxOutputTokens: 512,
        attempt: context.info.attempt,
        signal: AbortSignal.any([AbortSignal.timeout(JUDGE_TIMEOUT_MS), context.cancellationSignal]),
      },
      modelName,
    );
    const parsed = parseJudgeReply(response.content);
    // Unreadable: the guardrail cannot vouch for the text, so it trips (fail closed) rather than wave it through.
    const verdict: GuardrailVerdict = parsed
      ? { tripped: parsed.score < check.passAt, reason: `the judge scored ${parsed.score.toFixed(2)} (passes at ${check.passAt}): ${parsed.reason}`, findings: [], score: parsed.score }
      : { tripped: true, reason: "the judge's reply could not be read as a score", findings: [] };
    return { verdict, model, usage: response.usage };
  } finally {
    clearInterval(beat);
  }
}

export function createGuardrailActivities(deps: { models: ModelRegistry; mcpChecks?: McpCheckCaller | null }) {
  return {
    /** Runs one json_schema, judge or custom check on a text; a model or tool error is thrown (the activity retries). */
    async checkGuardrail(input: GuardrailCheckInput): Promise<GuardrailCheckOutput> {
      const started = Date.now();
      const { check } = input.guardrail;
      let outcome: Omit<GuardrailCheckOutput, "latencyMs">;
      switch (check.type) {
        case "json_schema":
          outcome = { verdict: await Promise.resolve(evaluateJsonSchemaCheck(check, input.text)) };
          break;
        case "judge":
          outcome = await judge(deps.models, check, input);
          break;
        case "custom":
          outcome = { verdict: await runCustomCheck(check.check, input.text, deps.mcpChecks ?? null) };
          break;
        default:
          // Deterministic checks run in the workflow; one sent here is answered the same way, never skipped.
          throw new Error(`the ${check.type} check runs in the workflow, not in this activity`);
      }
      return { ...outcome, latencyMs: Date.now() - started };
    },
  };
}

export type GuardrailActivities = ReturnType<typeof createGuardrailActivities>;
