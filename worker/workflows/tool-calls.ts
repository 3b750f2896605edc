// The tool calls of one iteration: the tools the agent holds, the gate (an
// approval when a rule demands one, and the checks that make a gated call
// invalid before anyone sees it), sub-agent messages, and where each call
// runs — done already by the model call (eager), a local activity
// (side-effect-free built-ins) or a regular one with heartbeats.
import { ActivityFailure, ApplicationFailure, isCancellation, proxyActivities, proxyLocalActivities, workflowInfo } from "@temporalio/workflow";
import type { AgentActivities, EagerTools, ToolActivityOutput } from "../activities/agent";
import type { FunctionTool } from "../models/types";
import type { AgentConfig } from "../../lib/agents/schemas";
import type { ToolCall, TraceSpan } from "../../lib/contract/types";
import type { AgentRunInput } from "../../lib/contract/workflow";
import { ACTIVITY_ERRORS } from "../../lib/contract/definitions";
import { BUILTIN_TOOLS } from "../../lib/tools/catalog";
import { HANDOFF_TOOL, handoffsOf, systemToolsFor } from "../../lib/contract/system-tools";
import { handoffRequest } from "./handoff";
import { type Approvals, argumentProblems, gateFor, mayRun, parseCallArguments } from "./approvals";
import { tapeGate } from "./tape-gate";
import { FALLBACK_POLICY, type GateRequirement } from "../../lib/policy/gate";
import { guardrailsOf, toolIsGuarded } from "./guardrails";
import { isDeterministicCheck, type DeterministicCheck } from "../../lib/guardrails/checks";
import { screenResult, type GuardrailHold } from "./guardrail-hooks";
import { RunFailure } from "./run-failure";
import type { CallOutcome, SubAgentConversations } from "./sub-agents";
import type { RunLedger } from "./run-ledger";
import type { RunState } from "./run-state";

// Tools fail by returning an error outcome (the model sees it); a thrown error
// is an infrastructure problem (database busy, network), retried for about a
// minute before the model hears that the tool is unavailable.
const TOOL_RETRY = { initialInterval: "500 milliseconds", backoffCoefficient: 2, maximumInterval: "8 seconds", maximumAttempts: 6 };

const { executeTool: executeLocalTool } = proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: "2 minutes",
  retry: TOOL_RETRY,
});

const { executeTool } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "2 minutes",
  // Short, so a worker that died mid-call is noticed and the call retried quickly.
  heartbeatTimeout: "5 seconds",
  retry: TOOL_RETRY,
});

/** Attempts the activity makes before reporting an unavailable tool (see worker/activities/agent.ts). */
const MCP_ATTEMPTS_SEEN = 3;

const LOCAL_TOOLS = new Set<string>(BUILTIN_TOOLS.filter((t) => !t.sideEffect).map((t) => t.id));

const { describeTools } = proxyActivities<AgentActivities>({
  startToCloseTimeout: "1 minute",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "1 second", maximumAttempts: 2 },
});

/** The approval a call an `inbox` guardrail stopped needs when no rule gates it: the workspace policy's floors, rejected on expiry. */
function guardrailGate(input: AgentRunInput): GateRequirement {
  const { floors } = input.gate?.policy ?? FALLBACK_POLICY;
  return {
    requiredRole: floors.requiredRole ?? null,
    requiredApprovals: floors.minRequiredApprovals,
    expiresInSeconds: floors.maxExpiresInSeconds,
    onExpiry: "reject",
    allowSelfApproval: floors.allowSelfApproval,
    reason: "rule",
  };
}

/** A call that has started: its span and start time. */
interface Begun {
  call: ToolCall;
  span: TraceSpan;
  started: number;
}

function outcomeOf(output: ToolActivityOutput): CallOutcome {
  return {
    ok: output.ok,
    content: output.content,
    errorKind: output.ok ? undefined : output.errorKind,
    attempts: output.attempt,
    ...(output.retryReason ? { retryReason: output.retryReason } : {}),
    ...(output.validation ? { validation: output.validation } : {}),
    ...(output.replayed ? { replayed: true } : {}),
    ...(output.edited ? { edited: output.edited } : {}),
  };
}

/** What tool calls need from the turn: the run, the agent, and the approval and conversation machinery. */
export interface ToolCallsContext {
  state: RunState;
  input: AgentRunInput;
  ledger: RunLedger;
  approvals: Approvals;
  conversations: SubAgentConversations;
  /** The agent whose turn it is (a RunFailure when the graph lacks it). */
  agent: () => AgentConfig;
  /** Publishes the run's status after tools start or end. */
  onStatusChange: () => void;
}

export class ToolCalls {
  /** The tools described for the agent (see prepare). */
  tools: FunctionTool[] = [];
  /** Outcomes of the calls the last model call ran itself (see eagerTools), by call id. */
  private eagerOutcomes = new Map<string, ToolActivityOutput>();
  /** Each call's place in the response being run (part of a plan node's side-effect keys). */
  private positions = new Map<string, number>();
  private eager: EagerTools | null = null;
  /** The arguments each call the last model call ran had then (a tool_call guardrail may mask them since). */
  private eagerArguments = new Map<string, string>();

  constructor(private readonly turn: ToolCallsContext) {}

  private get agent(): AgentConfig {
    return this.turn.agent();
  }

  /** Describes the agent's tools (built-ins, MCP servers, message_agent); a server that fails to answer is an error event. */
  async prepare(): Promise<void> {
    const { input, state } = this.turn;
    // A router's children take its tasks through routing, not message_agent.
    const subAgents = this.agent.kind === "router" ? [] : this.agent.subAgents.map((name) => ({ name, description: input.graph.agents.find((a) => a.name === name)?.description ?? "" }));
    const { tools, errors } = await describeTools({ agent: this.agent, subAgents });
    // The engine's own tools (return, fail, handoff) beside the agent's: only agents with a schema, a router role or handoffs hold any.
    this.tools = [...tools, ...systemToolsFor(this.agent, input.graph)];
    this.eager = null;
    for (const message of errors) state.emit({ type: "error", kind: "mcp", message });
  }

  schemaOf(toolName: string): Record<string, unknown> | undefined {
    return this.tools.find((t) => t.name === toolName)?.parameters;
  }

  /**
   * The tools a model call may run itself: side-effect-free built-ins the
   * agent holds that no approval gates. Only runs that carry their gate decide
   * this up front (an older run's gate is decided call by call, in its history).
   */
  eagerTools(): EagerTools | undefined {
    const { input } = this.turn;
    if (!input.gate) return undefined;
    this.eager ??= this.describeEagerTools(input);
    return this.eager;
  }

  private describeEagerTools(input: AgentRunInput): EagerTools {
    const { patches } = this.turn.state;
    const eligible = this.agent.tools.filter((name) => LOCAL_TOOLS.has(name) && name !== "message_agent" && !gateFor(input, this.agent, name, patches));
    // A tool a guardrail watches runs eagerly only when its tool_call checks are all deterministic: the model call
    // evaluates them on the arguments first and runs the call only when none trips (no mask, no inbox, no block).
    // The workflow then records the same checks and screens the result before the model sees it (runAll).
    const screened: Record<string, DeterministicCheck[]> = {};
    for (const name of eligible) {
      if (!toolIsGuarded(this.agent, name, patches)) continue;
      const checks = guardrailsOf(this.agent, "tool_call", patches, name).map((g) => g.check);
      if (checks.every(isDeterministicCheck)) screened[name] = checks.filter(isDeterministicCheck);
    }
    return {
      names: eligible.filter((name) => !toolIsGuarded(this.agent, name, patches)),
      ...(Object.keys(screened).length ? { screened } : {}),
      agent: this.agent,
      rootRunId: input.rootRunId,
      runContext: input.context,
      ...(patches.tape ? { tape: patches.tape } : {}),
    };
  }

  /** Keeps what the last model call ran itself, for the calls of its response (and the arguments each ran with). */
  useEagerOutcomes(outcomes: Record<string, ToolActivityOutput> | undefined, calls: readonly { id: string; arguments: string }[]): void {
    this.eagerOutcomes = new Map(Object.entries(outcomes ?? {}));
    this.eagerArguments = new Map(calls.filter((call) => this.eagerOutcomes.has(call.id)).map((call) => [call.id, call.arguments]));
  }

  /**
   * What the model call ran for `call`, if it may stand: a call whose tool_call guardrails masked its arguments or
   * sent it to the inbox runs again in the workflow's sight (the tools that run eagerly are side-effect free).
   */
  private eagerOutcome(call: ToolCall, held: boolean): ToolActivityOutput | undefined {
    const ran = this.eagerOutcomes.get(call.id);
    this.eagerOutcomes.delete(call.id);
    if (!ran) return undefined;
    return held || this.eagerArguments.get(call.id) !== call.function.arguments ? undefined : ran;
  }

  /** A problem that makes a gated call invalid before any human sees it, or null. */
  private callProblem(name: string, rawArguments: string): { problem: string; kind: string; args: Record<string, unknown> } | { problem: null; args: Record<string, unknown> } {
    const parsed = parseCallArguments(rawArguments);
    if ("problem" in parsed) return { problem: `The arguments for ${name} are invalid: ${parsed.problem}. Send a JSON object.`, kind: "invalid_arguments", args: {} };
    if (!this.tools.some((t) => t.name === name)) {
      return { problem: `There is no tool named "${name}". Available tools: ${this.tools.map((t) => t.name).join(", ") || "none"}.`, kind: "unknown_tool", args: parsed.args };
    }
    const problems = argumentProblems(parsed.args, this.schemaOf(name));
    if (problems.length) return { problem: `Invalid arguments for ${name}: ${problems.join("; ")}`, kind: "invalid_arguments", args: parsed.args };
    return { problem: null, args: parsed.args };
  }

  /**
   * Runs the calls of one response, each under a tool span with its events and
   * the status while it runs. Every call starts in order (its gate and activity
   * scheduled as it starts); the calls the model call already ran then end at
   * once, in order, without another await (each await in workflow code costs:
   * the SDK records a stack trace per promise), and the others as they finish.
   */
  runAll(calls: ToolCall[], parent: TraceSpan, guardrailInbox?: ReadonlyMap<string, GuardrailHold>): CallOutcome[] | Promise<CallOutcome[]> {
    this.positions = new Map(calls.map((call, i) => [call.id, i]));
    const started = calls.map((call) => {
      const begun = this.begin(call, parent);
      const hold = guardrailInbox?.get(call.id);
      const ran = this.eagerOutcome(call, hold !== undefined);
      return { begun, ran, work: ran ? null : this.gatedCall(call, begun.span, hold) };
    });
    const { patches } = this.turn.state;
    const ended = started.map(({ begun, ran, work }) => {
      // A watched call the model call ran still has its result screened before the model sees it.
      if (ran) return toolIsGuarded(this.agent, begun.call.function.name, patches) ? this.screened(begun, outcomeOf(ran)) : this.end(begun, outcomeOf(ran));
      return work!.then((outcome) => this.screened(begun, outcome), (error: unknown) => this.abandon(error));
    });
    return ended.every((e): e is CallOutcome => !(e instanceof Promise)) ? ended : Promise.all(ended);
  }

  private begin(call: ToolCall, parent: TraceSpan): Begun {
    const { state } = this.turn;
    const span = state.startSpan("tool", call.function.name, parent.id, { callId: call.id });
    state.emit({ type: "tool_call_started", iteration: state.iteration, callId: call.id, tool: call.function.name, arguments: call.function.arguments });
    state.toolsInFlight++;
    this.turn.onStatusChange();
    return { call, span, started: Date.now() };
  }

  private end({ call, span, started }: Begun, outcome: CallOutcome): CallOutcome {
    const { state } = this.turn;
    const name = call.function.name;
    state.toolsInFlight--;
    this.turn.onStatusChange();
    const result = outcome.ok ? "ok" : outcome.errorKind === "rejected" ? "rejected" : "error";
    state.emit({ type: "tool_call_completed", iteration: state.iteration, callId: call.id, tool: name, outcome: result, durationMs: Date.now() - started, attempts: outcome.attempts, result: outcome.content, ...(outcome.replayed ? { replayed: true } : {}), ...(outcome.edited ? { edited: outcome.edited } : {}) });
    if (!outcome.ok && outcome.errorKind !== "rejected") state.emit({ type: "error", kind: outcome.errorKind ?? "tool", message: outcome.content, callId: call.id });
    state.endSpan(span, outcome.ok ? "ok" : "error", {
      attempts: outcome.attempts,
      attributes: {
        outcome: result,
        ...(outcome.retryReason ? { retryReason: outcome.retryReason } : {}),
        // Tools that declare an output schema: whether this result matched it.
        ...(outcome.validation ? { validation_ok: outcome.validation === "ok" } : {}),
        // Taped runs: the result came from the tape, or the tape's policy decided the approval.
        ...(outcome.replayed ? { replayed: true } : {}),
        // A fork's edited result: from the tape, but written by someone (who, when), never a recording.
        ...(outcome.edited ? { edited: true, editedBy: outcome.edited.by, editedAt: outcome.edited.at } : {}),
        ...(outcome.approval ? { approval: outcome.approval } : {}),
      },
    });
    return outcome;
  }

  /** Ends a call once its result passed the tool_result guardrails (masked, perhaps); a block ends the call's span, then the run. */
  private screened(begun: Begun, outcome: CallOutcome): CallOutcome | Promise<CallOutcome> {
    const { state, input } = this.turn;
    if (!state.patches.guardrails) return this.end(begun, outcome);
    return screenResult(state, input, this.agent, begun.call, outcome.content, begun.span.id).then(
      (content) => this.end(begun, content === null || content === outcome.content ? outcome : { ...outcome, content }),
      (error: unknown) => {
        if (!(error instanceof RunFailure)) return this.abandon(error);
        this.end(begun, { ok: false, errorKind: "guardrail", attempts: outcome.attempts, content: `The result of ${begun.call.function.name} was withheld: ${error.message}` });
        throw error;
      },
    );
  }

  /** A call that threw (cancellation): no longer in flight, and the error goes on. */
  private abandon(error: unknown): never {
    this.turn.state.toolsInFlight--;
    this.turn.onStatusChange();
    throw error;
  }

  /**
   * Runs a call, through an approval when the gate demands one (the workspace
   * policy's deny-by-default and floors, plus graph rules — own and inherited);
   * an invalid call is a tool error, never an approval request.
   */
  private async gatedCall(call: ToolCall, span: TraceSpan, guardrail?: GuardrailHold): Promise<CallOutcome> {
    const name = call.function.name;
    let rawArguments = call.function.arguments;
    // A tool_call guardrail with the action `inbox` gates the call like a rule does (with the workspace floors when no rule applies).
    const rule = gateFor(this.turn.input, this.agent, name, this.turn.state.patches) ?? (guardrail ? guardrailGate(this.turn.input) : null);
    if (rule) {
      const checked = this.callProblem(name, rawArguments);
      if (checked.problem !== null) return { ok: false, errorKind: checked.kind, attempts: 0, content: checked.problem };
      // A taped run asks its tape before an approval opens: a recorded call keeps its recorded outcome, and an
      // experiment's policy decides the rest without the inbox (tape-gate.ts). Other runs never get here.
      const taped = this.turn.state.patches.tape ? await tapeGate(this.turn.state.patches.tape, call, this.turn.state.iteration) : null;
      if (taped?.outcome) return taped.outcome;
      if (taped?.approved) {
        const outcome = await this.afterApproval(call, rawArguments, span);
        return { ...outcome, approval: "policy" };
      }
      const approval = await this.turn.approvals.request(call, checked.args, rule, this.agent.name, span, guardrail);
      if (!mayRun(approval)) {
        const reason = approval.decision?.reason ?? (approval.status === "expired" ? "nobody decided before the approval expired" : "no reason given");
        return { ok: false, errorKind: "rejected", attempts: 0, content: `The call to ${name} was not approved (${approval.status}): ${reason}` };
      }
      if (approval.decision?.editedArguments) rawArguments = JSON.stringify(approval.decision.editedArguments);
    }
    return this.afterApproval(call, rawArguments, span);
  }

  /** Runs a call that may run (ungated, or approved). */
  private afterApproval(call: ToolCall, rawArguments: string, span: TraceSpan): CallOutcome | Promise<CallOutcome> {
    const name = call.function.name;
    if (name === "message_agent" && this.agent.subAgents.length > 0) return this.turn.conversations.message(this.agent, rawArguments, span);
    // A valid handoff never gets here (the loop hands off); an invalid one tells the model what to fix.
    if (name === HANDOFF_TOOL && handoffsOf(this.agent).length > 0) {
      const request = handoffRequest(this.agent, [{ id: call.id, name, arguments: rawArguments }]);
      return { ok: false, errorKind: "invalid_arguments", attempts: 0, content: request && "problem" in request ? request.problem : `${HANDOFF_TOOL} must be the only way the turn ends.` };
    }
    return this.callTool(call, rawArguments);
  }

  private async callTool(call: ToolCall, rawArguments: string): Promise<CallOutcome> {
    try {
      const input = {
        agent: this.agent,
        toolName: call.function.name,
        rawArguments,
        runId: workflowInfo().workflowId,
        rootRunId: this.turn.input.rootRunId,
        iteration: this.turn.state.iteration,
        callId: call.id,
        runContext: this.turn.input.context,
        // A plan node's attempts share their side effects' names (AgentRunInput.sideEffectScope).
        ...(this.turn.input.sideEffectScope ? { sideEffectScope: this.turn.input.sideEffectScope, position: this.positions.get(call.id) ?? 0 } : {}),
        ...(this.turn.state.patches.tape ? { tape: this.turn.state.patches.tape } : {}),
      };
      // Only an execution from before steps-in-history (and untaped: EnginePatches.tapeCallsInHistory) runs a
      // side-effect-free built-in as a local activity; every other call is a regular activity, an event of its own.
      const { patches } = this.turn.state;
      const local = !patches.stepsInHistory && LOCAL_TOOLS.has(call.function.name) && this.agent.tools.includes(call.function.name) && patches.tapeCallsInHistory !== true;
      return outcomeOf(local ? await this.turn.ledger.exclusive(() => executeLocalTool(input), { carry: false }) : await executeTool(input));
    } catch (error) {
      if (isCancellation(error)) throw error;
      if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === ACTIVITY_ERRORS.toolUnavailable) {
        return { ok: false, errorKind: "unavailable", attempts: MCP_ATTEMPTS_SEEN, content: `${call.function.name} failed: ${error.cause.message}` };
      }
      // The activity logged the details with the run id; the model (and the trace) get a plain sentence.
      return {
        ok: false,
        errorKind: "unavailable",
        attempts: TOOL_RETRY.maximumAttempts,
        content: `${call.function.name} is temporarily unavailable (it failed ${TOOL_RETRY.maximumAttempts} times on an internal problem); try again later or continue without it.`,
      };
    }
  }
}
