// An agent's guardrails inside the workflow (issue 40 §1; the contract is
// lib/guardrails/schemas.ts). Deterministic checks (regex, deny-list, PII, max
// length) run inline: pure functions of the text, replayed identically. JSON
// schema, judge and custom checks run as one regular activity
// (worker/activities/guardrails.ts), whose result is an event of its own in
// history: a worker killed mid-check retries it, and the run records it once.
// Each check is a `guardrail` span and a `guardrail_checked` event; neither
// ever holds the text the check found. Only executions that asked the
// `guardrails` patch get here (engine-patches.ts): every other run's agents
// have no guardrails as far as the engine is concerned.
import { ActivityFailure, isCancellation, proxyActivities, workflowInfo } from "@temporalio/workflow";
import { matchesGlob } from "../../lib/agents/glob";
import type { AgentConfig, RunLimits } from "../../lib/agents/schemas";
import { evaluateDeterministicCheck, maskFindings } from "../../lib/guardrails/checks";
import type { Guardrail, GuardrailKind, GuardrailVerdict } from "../../lib/guardrails/schemas";
import type { GuardrailActivities, GuardrailCheckOutput } from "../activities/guardrails";
import { checkTokenBudget } from "./budget";
import type { EnginePatches } from "./engine-patches";
import { RunFailure } from "./run-failure";
import type { RunState } from "./run-state";

// A judge is a model call: retried like one (a model that is down, a worker that died), then the check trips.
const { checkGuardrail } = proxyActivities<GuardrailActivities>({
  startToCloseTimeout: "90 seconds",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "20 seconds", maximumAttempts: 5 },
});

/** The guardrails of `kind` the agent has (for tool kinds, those whose `tools` globs select `toolName`); none without the patch. */
export function guardrailsOf(agent: AgentConfig, kind: GuardrailKind, patches: Pick<EnginePatches, "guardrails">, toolName?: string): Guardrail[] {
  if (!patches.guardrails) return [];
  // An agent saved before guardrails existed has no such field (its graph never asks the patch, but stay safe).
  const all = (agent as { guardrails?: Guardrail[] }).guardrails ?? [];
  return all.filter((g) => g.kind === kind && (toolName === undefined || !g.tools || g.tools.some((pattern) => matchesGlob(pattern, toolName))));
}

/** Whether the agent has any guardrail (a plan node on it then runs as a child workflow, where they run). */
export function agentHasGuardrails(agent: AgentConfig): boolean {
  return ((agent as { guardrails?: Guardrail[] }).guardrails?.length ?? 0) > 0;
}

/** Whether a call of `toolName` is watched by a tool guardrail (such a call never runs eagerly inside the model call). */
export function toolIsGuarded(agent: AgentConfig, toolName: string, patches: Pick<EnginePatches, "guardrails">): boolean {
  return guardrailsOf(agent, "tool_call", patches, toolName).length > 0 || guardrailsOf(agent, "tool_result", patches, toolName).length > 0;
}

/** The run's failure when a guardrail blocks: names the guardrail and its kind, never quotes what it found. */
export function guardrailFailure(guardrail: Guardrail, reason: string, note = ""): RunFailure {
  return new RunFailure("guardrail_tripped", `guardrail "${guardrail.name}" (${guardrail.kind}, ${guardrail.check.type}) tripped${note}: ${reason}`, {
    guardrail: { name: guardrail.name, kind: guardrail.kind, check: guardrail.check.type },
  });
}

/** What screening a text decided (a `block` throws guardrail_tripped instead). */
export type Screening =
  /** The text goes on: as it was, or masked by the `mask` guardrails in `masks`. */
  | { outcome: "pass"; text: string; masks: Guardrail[] }
  /** A tool_call guardrail sent the call to the inbox (the text is the arguments, masked if a mask tripped too), with its verdict's sentence. */
  | { outcome: "inbox"; text: string; masks: Guardrail[]; guardrail: Guardrail; reason: string }
  /** An output guardrail asks the model to rewrite its answer. */
  | { outcome: "rewrite"; text: string; masks: Guardrail[]; guardrail: Guardrail; reason: string };

export interface ScreenContext {
  state: RunState;
  limits: RunLimits;
  agentModel: string;
  /** What the agent works on (a judge reads it beside the text). */
  task: string;
  parentSpanId: string | null;
  /** Tool kinds: the call checked. */
  tool?: { name: string; callId: string };
}

/** The actions each kind can take; any other trips as a block (fail closed). */
function actionFits(guardrail: Guardrail): boolean {
  switch (guardrail.action) {
    case "inbox":
      return guardrail.kind === "tool_call";
    case "rewrite":
      return guardrail.kind === "output";
    default:
      return true;
  }
}

function failedCheck(error: unknown): GuardrailVerdict {
  const cause = error instanceof ActivityFailure && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
  // Fail closed: a check that could not run cannot vouch for the text. Its error names no text.
  return { tripped: true, reason: `the check could not run (${cause.slice(0, 200)})`, findings: [] };
}

/** Runs one guardrail on a text: its span, its verdict (inline or through the activity), its event and its tokens. */
async function runCheck(guardrail: Guardrail, text: string, context: ScreenContext): Promise<GuardrailVerdict> {
  const { state } = context;
  const tool: { tool?: string; callId?: string } = context.tool ? { tool: context.tool.name, callId: context.tool.callId } : {};
  const toolAttributes: Record<string, string> = context.tool ? { tool: context.tool.name, callId: context.tool.callId } : {};
  const span = state.startSpan("guardrail", guardrail.name, context.parentSpanId, { guardrailKind: guardrail.kind, check: guardrail.check.type, action: guardrail.action, ...toolAttributes });
  let verdict = evaluateDeterministicCheck(guardrail.check, text);
  let output: GuardrailCheckOutput | null = null;
  if (!verdict) {
    try {
      output = await checkGuardrail({
        runId: workflowInfo().workflowId,
        guardrail: { name: guardrail.name, kind: guardrail.kind, check: guardrail.check },
        text,
        agentModel: context.agentModel,
        task: context.task,
      });
      verdict = output.verdict;
    } catch (error) {
      if (isCancellation(error)) {
        state.endSpan(span, "error", { attributes: { outcome: "cancelled" } });
        throw error;
      }
      verdict = failedCheck(error);
    }
  }
  if (output?.usage) state.addUsage(output.usage);
  const detectors = [...new Set(verdict.findings.map((f) => f.detector))];
  const stops = verdict.tripped && (guardrail.action === "block" || !actionFits(guardrail));
  state.endSpan(span, stops ? "error" : "ok", {
    ...(output?.usage ? { tokens: output.usage } : {}),
    attributes: {
      verdict: verdict.tripped ? "tripped" : "passed",
      reason: verdict.reason,
      ...(detectors.length ? { detectors: detectors.join(","), findings: verdict.findings.length } : {}),
      ...(verdict.score !== undefined ? { score: verdict.score } : {}),
      ...(output ? { latencyMs: output.latencyMs } : {}),
      ...(output?.model ? { model: output.model } : {}),
    },
  });
  state.emit({
    type: "guardrail_checked",
    guardrail: guardrail.name,
    guardrailKind: guardrail.kind,
    check: guardrail.check.type,
    action: guardrail.action,
    tripped: verdict.tripped,
    reason: verdict.reason,
    detectors,
    spanId: span.id,
    ...tool,
    ...(verdict.score !== undefined ? { score: verdict.score } : {}),
    ...(output?.model && output.usage ? { model: output.model, usage: output.usage } : {}),
  });
  // A judge spends tokens like any model call: the budget holds (and may ask for more) here too.
  if (output?.usage) {
    const extension = checkTokenBudget(state, context.limits);
    if (extension) await extension;
  }
  return verdict;
}

/**
 * Runs the guardrails on a text, in their order; each sees the text as the
 * ones before left it (masked). `block` (and an action the kind cannot take,
 * or a mask with nothing to mask) throws guardrail_tripped; `mask` redacts
 * the findings; `log` only records; `inbox` (tool_call) and `rewrite`
 * (output) are answered to the caller.
 */
export async function screen(guardrails: readonly Guardrail[], text: string, context: ScreenContext): Promise<Screening> {
  let current = text;
  const masks: Guardrail[] = [];
  let inbox: { guardrail: Guardrail; reason: string } | null = null;
  for (const guardrail of guardrails) {
    const verdict = await runCheck(guardrail, current, context);
    if (!verdict.tripped) continue;
    if (guardrail.action === "block" || !actionFits(guardrail)) throw guardrailFailure(guardrail, verdict.reason);
    if (guardrail.action === "mask") {
      if (verdict.findings.length === 0) throw guardrailFailure(guardrail, verdict.reason, " (nothing it could mask)");
      current = maskFindings(current, verdict.findings);
      masks.push(guardrail);
    } else if (guardrail.action === "rewrite") {
      return { outcome: "rewrite", text: current, masks, guardrail, reason: verdict.reason };
    } else if (guardrail.action === "inbox") {
      inbox ??= { guardrail, reason: verdict.reason };
    }
  }
  return inbox ? { outcome: "inbox", text: current, masks, ...inbox } : { outcome: "pass", text: current, masks };
}

/**
 * Applies the masks that tripped on one text to another that carries the same
 * content in another form (a typed answer's `return` call arguments, its data as
 * JSON): the checks are pure, so they find the same things there.
 */
export function applyMasks(masks: readonly Guardrail[], text: string): string {
  let current = text;
  for (const guardrail of masks) {
    const verdict = evaluateDeterministicCheck(guardrail.check, current);
    if (verdict?.tripped && verdict.findings.length) current = maskFindings(current, verdict.findings);
  }
  return current;
}
