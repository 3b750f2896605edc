// Activities of the agent workflow: model inference, tool discovery and tool
// execution. Long calls heartbeat so that a dead worker is noticed quickly and
// cancellation reaches them.
import { createHash } from "node:crypto";
import { hostname } from "node:os";
import { ApplicationFailure, CancelledFailure, Context } from "@temporalio/activity";
import type { AgentConfig } from "../../lib/agents/schemas";
import type { ChatMessage, EditMark, TokenUsage } from "../../lib/contract/types";
import type { LedgerBatch } from "../../lib/contract/workflow";
import { ACTIVITY_ERRORS } from "../../lib/contract/definitions";
import type { Db } from "../../lib/db/prisma";
import { readMessages } from "../../lib/run-ledger/read";
import { dropFinishedTokens, tokenWriter } from "../../lib/runs/token-store";
import type { ModelRegistry } from "../models/registry";
import { ModelCallError, type FunctionTool, type ModelToolCall } from "../models/types";
import type { SubAgentInfo, ToolExecutor } from "../tools/executor";
import type { ToolOutcome } from "../tools/types";
import { McpError } from "../tools/mcp";
import { ConversationCache } from "./conversation-cache";
import { ImageCache, MissingImageError, withImageData } from "./image-loader";
import { checkAnswer, type AnswerCheck, type AnswerSchema } from "./answer-check";
import { evaluateDeterministicCheck, type DeterministicCheck } from "../../lib/guardrails/checks";
import { buildHandoffContext, type HandoffContextInput } from "./handoff-context";
import { withDependencyResults } from "./dependency-results";
import { createTapeAccess, type TapeCall, type TapeGateAnswer, type TapeToolCall } from "./tape";
import type { SpendLimitHit } from "../../lib/contract/spend-limit-approval";
import { createRunSpendCheck, type RunSpendCheck } from "../../lib/spend-limits/server/running";

export interface InferenceInput {
  runId: string;
  iteration: number;
  agentName: string;
  model: string;
  /** The conversation: its first `messageCount` messages, read from the run ledger and, past what it holds, from `ledger`. */
  messageCount: number;
  /** What the run emitted since its last write, written by this activity while the model works (null: nothing pending). */
  ledger: LedgerBatch | null;
  tools: FunctionTool[];
  temperature: number;
  maxOutputTokens: number;
  /** Index of the first message the agent sees (after a handoff, its own conversation starts there). */
  conversationStart?: number;
  /** The schema the agent's final answer must match: the call checks the answer against it (JSON Schema needs Ajv, which workflow code cannot load). */
  answerSchema?: AnswerSchema;
  /**
   * Ungated, side-effect-free built-in tools this activity runs itself when the
   * model calls them, as the plain loop would: the iteration then costs one
   * round trip to the workflow instead of two. A call that fails on an internal
   * problem is left out and runs as its own activity, with its retries.
   */
  eagerTools?: EagerTools;
  /** A taped run's tape and path (worker/activities/tape.ts): the recorded response at this step is used instead of the model. */
  tape?: TapeCall;
  /**
   * Asks the call to check the spend limits of the run tree (its root run) first: when one is reached the model is
   * not called and the output carries `spendLimit` (the spend-limits-in-run patch; older executions never send it;
   * a taped run sends it under spend-limits-every-call, and only a step its tape does not answer is checked).
   */
  spendCheck?: { rootRunId: string };
}

export interface EagerTools {
  names: string[];
  /**
   * Tools a guardrail watches that may still run here: their tool_call checks (deterministic ones only, pure
   * functions of the arguments) are evaluated first, and the call runs only when none trips. The workflow runs
   * the same checks on the same arguments (recording them) and screens the result before the model sees it.
   * A field of its own, not a name in `names`: an older worker's activity ignores it and never runs them.
   */
  screened?: Record<string, DeterministicCheck[]>;
  agent: AgentConfig;
  rootRunId: string;
  runContext: Record<string, unknown>;
  /** The run's tape: eager calls ask it first too. */
  tape?: TapeCall;
}

export interface InferenceOutput {
  content: string | null;
  toolCalls: ModelToolCall[];
  usage: TokenUsage;
  latencyMs: number;
  attempt: number;
  /** Why earlier attempts failed (for the trace), when this is a retry. */
  retryReason?: string;
  /** When the model call started (the worker's clock; workflow time does not move while local activities run). */
  startedAt: string;
  /** Outcomes of the eager tool calls, by call id. */
  toolOutcomes?: Record<string, ToolActivityOutput>;
  /** The final answer checked against the answer schema (a `return` call, or text without tool calls), when the agent has one. */
  answer?: AnswerCheck;
  /** The provider wrote its tool call as text and it was read as the call (…_TOOL_CALLS_IN_TEXT). */
  toolCallsFromText?: boolean;
  /** The response came from the run's tape: no model was called, usage is 0 and the recorded usage is kept here. */
  replayed?: { recordedUsage: TokenUsage; model: string };
  /** The response came from the run's tape but was written, not recorded (a fork's edited output): who and when. Never with `replayed`. */
  edited?: EditMark;
  /** A spend limit of the run's scope is reached (asked by `spendCheck`): the model was not called, nothing was spent. */
  spendLimit?: SpendLimitHit;
}

export interface ToolActivityInput {
  agent: AgentConfig;
  toolName: string;
  rawArguments: string;
  runId: string;
  rootRunId: string;
  iteration: number;
  callId: string;
  runContext: Record<string, unknown>;
  /** A plan node's side-effect scope (AgentRunInput.sideEffectScope) and the call's place in its response. */
  sideEffectScope?: string;
  position?: number;
  /** The run's tape: a recorded result is used instead of running the tool (worker/activities/tape.ts). */
  tape?: TapeCall;
}

/**
 * The key a tool's side effect is recorded under (demo-bank's transfers, any
 * tool that dedupes). Per run and call by default. Inside a plan node it names
 * the node instead of the attempt's run, and the call by its step, place,
 * tool and arguments instead of the model's call id (which a real provider
 * draws anew): an attempt that repeats attempt 1's call gets its recorded result.
 */
export function sideEffectKey(input: Pick<ToolActivityInput, "runId" | "iteration" | "callId" | "toolName" | "rawArguments" | "sideEffectScope" | "position">): string {
  if (!input.sideEffectScope) return `${input.runId}:${input.iteration}:${input.callId}`;
  const args = createHash("sha256").update(input.rawArguments).digest("hex").slice(0, 24);
  return `${input.sideEffectScope}:${input.iteration}:${input.position ?? 0}:${input.toolName}:${args}`;
}

/** `retryReason`: why earlier attempts did not finish (for the trace), when this is a retry. */
export type ToolActivityOutput = ToolOutcome & { durationMs: number; attempt: number; retryReason?: string; /** The result came from the run's tape: the tool did not run. */ replayed?: boolean; /** The tape's result was written, not recorded (a fork's edit): never with `replayed`. */ edited?: EditMark };

/**
 * Heartbeat details name the worker, so the next attempt can tell a lost
 * worker from a failed attempt; a failing attempt adds its (user-safe) failure
 * message in a last heartbeat, which the SDK flushes before reporting the failure.
 */
interface HeartbeatMark {
  worker: string;
  attempt: number;
  failure?: string;
}

const WORKER_ID = `${hostname()}/${process.pid}`;

/** Why the attempt before this one did not finish, read from its last heartbeat (or, for local activities, from `attemptFailures`). */
export function retryReason(attempt: number, previous: unknown, worker: string = WORKER_ID): string | undefined {
  if (attempt <= 1) return undefined;
  const mark = previous && typeof previous === "object" ? (previous as Partial<HeartbeatMark>) : null;
  if (mark?.failure) return `attempt ${attempt - 1} failed: ${mark.failure}${mark.worker && mark.worker !== worker ? ` (on worker ${mark.worker})` : ""}; retried`;
  if (mark?.worker && mark.worker !== worker) {
    return `attempt ${attempt - 1} stopped heartbeating on worker ${mark.worker} (heartbeat timeout: the worker was lost); retried on ${worker}`;
  }
  if (mark?.worker) return `attempt ${attempt - 1} failed on this worker (${worker}) and was retried; details are in the worker log`;
  return `attempt ${attempt - 1} failed or timed out before its first heartbeat and was retried`;
}

/**
 * Local activities (model calls, side-effect-free tools) retry inside the
 * worker and have no heartbeat details, so each failure is remembered here,
 * keyed by workflow run and call, for the next attempt to report. Bounded: the
 * oldest entries go first, and a success forgets its key.
 */
export class AttemptFailures {
  private readonly failures = new Map<string, HeartbeatMark>();
  constructor(private readonly capacity = 1000) {}

  record(key: string, attempt: number, failure: string): void {
    this.failures.delete(key);
    this.failures.set(key, { worker: WORKER_ID, attempt, failure });
    if (this.failures.size > this.capacity) this.failures.delete(this.failures.keys().next().value ?? key);
  }

  /** The reason for attempt `attempt`, and the key is forgotten. */
  take(key: string, attempt: number): string | undefined {
    const mark = this.failures.get(key);
    this.failures.delete(key);
    if (attempt <= 1) return undefined;
    if (mark?.attempt === attempt - 1) return retryReason(attempt, mark);
    // Retried here without a record: the attempt ran in a worker process that was restarted or lost.
    return `attempt ${attempt - 1} did not finish in this worker process (${WORKER_ID}) and was retried`;
  }
}

export interface AgentActivityDeps {
  db: Db;
  ledger: { write(batch: LedgerBatch): Promise<void> };
  models: ModelRegistry;
  tools: ToolExecutor;
  /** The spend check of working runs (default: the database's, lib/spend-limits/server/running.ts). */
  spendCheck?: RunSpendCheck;
}

const HEARTBEAT_EVERY_MS = 1000;
const MCP_ATTEMPTS = 3;

/** Heartbeats while `work` runs, so timeouts and cancellation reach long calls (local activities have no heartbeat). */
async function withHeartbeat<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  if (context.info.isLocal) return work();
  const mark: HeartbeatMark = { worker: WORKER_ID, attempt: context.info.attempt };
  context.heartbeat(mark);
  const timer = setInterval(() => context.heartbeat(mark), HEARTBEAT_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Logs an unexpected failure with the run it belongs to and replaces it with a
 * retryable error whose message is safe to show: stack traces, file paths and
 * driver messages stay in the worker log.
 */
function infrastructureFailure(error: unknown, what: string, runId: string, attempt: number): ApplicationFailure {
  console.error(`worker: ${what} failed in run ${runId} (attempt ${attempt}):`, error);
  return ApplicationFailure.create({ type: ACTIVITY_ERRORS.infrastructure, message: `${what} failed on an internal problem (see the worker log for run ${runId})` });
}

/** Remembers why this attempt failed, for the next attempt to put on the trace, and returns the failure to throw. */
function remembered(failures: AttemptFailures, key: string, failure: ApplicationFailure): ApplicationFailure {
  const context = Context.current();
  if (context.info.isLocal) failures.record(key, context.info.attempt, failure.message);
  else context.heartbeat({ worker: WORKER_ID, attempt: context.info.attempt, failure: failure.message } satisfies HeartbeatMark);
  return failure;
}

/** Why earlier attempts of this call failed; read before this attempt's own heartbeats replace the details. */
function reasonForRetry(failures: AttemptFailures, key: string): string | undefined {
  const { info } = Context.current();
  return info.isLocal ? failures.take(key, info.attempt) : retryReason(info.attempt, info.heartbeatDetails);
}

/**
 * The conversation a model call sees: the messages the ledger already holds,
 * then those the call carries (its batch is being written at the same time).
 */
async function conversationOf(db: Db, cache: ConversationCache, input: InferenceInput): Promise<ChatMessage[]> {
  const execution = Context.current().info.workflowExecution?.runId ?? input.runId;
  const carried = input.ledger?.messages ?? [];
  const firstCarried = carried[0]?.index ?? input.messageCount;
  const held = cache.get(execution, firstCarried) ?? (await readMessages(db, input.runId, firstCarried));
  const messages = [...held, ...carried.map((m) => m.message)];
  if (messages.length !== input.messageCount) throw new Error(`ledger holds ${messages.length} of ${input.messageCount} messages`);
  cache.set(execution, messages);
  return input.conversationStart ? messages.slice(input.conversationStart) : messages;
}

export function createAgentActivities({ db, ledger, models, tools, spendCheck = createRunSpendCheck(db) }: AgentActivityDeps) {
  const failures = new AttemptFailures();
  const conversations = new ConversationCache();
  const images = new ImageCache();
  const tapes = createTapeAccess(db);

  /** Reads the conversation and asks the model. */
  async function answer(input: InferenceInput, key: string, why: string | undefined, started: number): Promise<InferenceOutput> {
    const context = Context.current();
    const attempt = context.info.attempt;
    let messages;
    try {
      // The images' bytes join the messages here, for this call only: the conversation cache and the ledger keep references.
      // So do a plan node's dependencies' results (the ledger keeps their references, see dependency-results.ts).
      messages = await withImageData(db, images, await withDependencyResults(db, await conversationOf(db, conversations, input)));
    } catch (error) {
      if (error instanceof MissingImageError) throw remembered(failures, key, ApplicationFailure.create({ type: ACTIVITY_ERRORS.model, message: error.message, nonRetryable: true }));
      throw remembered(failures, key, infrastructureFailure(error, "reading the conversation", input.runId, attempt));
    }
    try {
      const { provider, modelName } = models.resolve(input.model);
      // The reply's text streams to a transient store the web server reads (token streaming), never into history.
      const tokens = tokenWriter(db, { runId: input.runId, iteration: input.iteration, attempt, agentName: input.agentName });
      const response = await withHeartbeat(() =>
        provider.generate(
          {
            model: input.model,
            agentName: input.agentName,
            messages,
            tools: input.tools,
            temperature: input.temperature,
            maxOutputTokens: input.maxOutputTokens,
            ...(input.answerSchema ? { responseSchema: input.answerSchema.schema } : {}),
            attempt,
            signal: context.cancellationSignal,
            onText: (delta) => tokens.push(delta),
          },
          modelName,
        ),
      ).finally(() => tokens.finish());
      const answer = input.answerSchema ? checkAnswer(input.answerSchema, response) : undefined;
      return {
        content: response.content,
        toolCalls: response.toolCalls,
        usage: response.usage,
        latencyMs: Date.now() - started,
        attempt,
        startedAt: new Date(started).toISOString(),
        ...(why ? { retryReason: why } : {}),
        ...(answer ? { answer } : {}),
        ...(response.toolCallsFromText ? { toolCallsFromText: true } : {}),
      };
    } catch (error) {
      // Cancelled (the run was cancelled, timed out or is gone): nobody waits for this result. The SDK's own
      // CancelledFailure ends the activity as cancelled; the provider's abort error would be logged as a failure.
      if (context.cancellationSignal.aborted) {
        const reason: unknown = context.cancellationSignal.reason;
        throw reason instanceof CancelledFailure ? reason : error;
      }
      if (error instanceof ModelCallError) {
        throw remembered(failures, key, ApplicationFailure.create({ type: ACTIVITY_ERRORS.model, message: error.message, nonRetryable: !error.retryable }));
      }
      throw remembered(failures, key, infrastructureFailure(error, "the model call", input.runId, attempt));
    }
  }

  /** The spend limit of the run tree that is reached, or null; a failing read is retried (the model is not called meanwhile). */
  async function checkSpend(rootRunId: string, runId: string, key: string, written: Promise<void>): Promise<SpendLimitHit | null> {
    try {
      return await spendCheck(rootRunId, written);
    } catch (error) {
      throw remembered(failures, key, infrastructureFailure(error, "checking the spend limits", runId, Context.current().info.attempt));
    }
  }

  /** Runs one tool call in the current activity (heartbeating when it is a regular one). */
  async function runTool(input: ToolActivityInput): Promise<ToolActivityOutput> {
    const context = Context.current();
    const started = Date.now();
    if (input.tape && tools.offers(input.agent, input.toolName)) {
      const taped = await tapes.tool({ tape: input.tape, runId: input.runId, iteration: input.iteration, callId: input.callId, tool: input.toolName, rawArguments: input.rawArguments });
      if (taped.kind === "recorded") return { ...taped.outcome, durationMs: Date.now() - started, attempt: context.info.attempt, ...(taped.edited ? { edited: taped.edited } : { replayed: true }) };
      if (taped.kind === "refused") return { ...taped.outcome, durationMs: Date.now() - started, attempt: context.info.attempt };
    }
    const outcome = await withHeartbeat(() =>
      tools.execute({
        agent: input.agent,
        toolName: input.toolName,
        rawArguments: input.rawArguments,
        context: {
          runId: input.runId,
          rootRunId: input.rootRunId,
          agentName: input.agent.name,
          iteration: input.iteration,
          callId: input.callId,
          idempotencyKey: sideEffectKey(input),
          runContext: input.runContext,
          signal: context.cancellationSignal,
          heartbeat: () => {
            if (!context.info.isLocal) context.heartbeat({ worker: WORKER_ID, attempt: context.info.attempt } satisfies HeartbeatMark);
          },
        },
      }),
    );
    return { ...outcome, durationMs: Date.now() - started, attempt: context.info.attempt };
  }

  /** Runs the model's calls of eager tools in parallel; one that throws is left to the workflow (it retries it as an activity). */
  async function withEagerTools(input: InferenceInput, output: InferenceOutput): Promise<InferenceOutput> {
    const eager = input.eagerTools;
    if (!eager) return output;
    const screened = eager.screened ?? {};
    const passes = (call: ModelToolCall) => Object.hasOwn(screened, call.name) && (screened[call.name] ?? []).every((check) => evaluateDeterministicCheck(check, call.arguments)?.tripped === false);
    const calls = output.toolCalls.filter((call) => eager.names.includes(call.name) || passes(call));
    if (calls.length === 0) return output;
    const settled = await Promise.all(
      calls.map((call) =>
        runTool({ agent: eager.agent, toolName: call.name, rawArguments: call.arguments, runId: input.runId, rootRunId: eager.rootRunId, iteration: input.iteration, callId: call.id, runContext: eager.runContext, ...(eager.tape ? { tape: eager.tape } : {}) }).then(
          (outcome) => [call.id, outcome] as const,
          () => null,
        ),
      ),
    );
    return { ...output, toolOutcomes: Object.fromEntries(settled.filter((entry) => entry !== null)) };
  }

  /** The response recorded on the run's tape at this step, as the model call's answer; null when the tape holds none (the model is called). */
  async function replayedAnswer(input: InferenceInput, tape: TapeCall, why: string | undefined, started: number): Promise<InferenceOutput | null> {
    const recorded = await tapes.model(tape, input.iteration);
    if (!recorded) return null;
    const { response } = recorded;
    const toolCalls = response.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments }));
    const checked = input.answerSchema ? checkAnswer(input.answerSchema, { content: response.text, toolCalls }) : undefined;
    return {
      content: response.text,
      toolCalls,
      usage: recorded.usage,
      latencyMs: Date.now() - started,
      attempt: Context.current().info.attempt,
      startedAt: new Date(started).toISOString(),
      // A written (edited) response is not a recording: it is marked as edited, never as replayed.
      ...(recorded.edited ? { edited: recorded.edited } : { replayed: { recordedUsage: response.usage, model: response.model } }),
      ...(why ? { retryReason: why } : {}),
      ...(checked ? { answer: checked } : {}),
    };
  }

  return {
    /**
     * A taped run's approval-gated call, before an approval opens: the tape's recorded outcome (the
     * approval is not asked again), or its policy's automatic decision, or "inbox" (a normal approval).
     */
    async tapeGate(input: TapeToolCall): Promise<TapeGateAnswer> {
      try {
        return await tapes.gate(input);
      } catch (error) {
        throw infrastructureFailure(error, "reading the run's tape", input.runId, Context.current().info.attempt);
      }
    },

    async runInference(input: InferenceInput): Promise<InferenceOutput> {
      const context = Context.current();
      const attempt = context.info.attempt;
      const key = `${context.info.workflowExecution?.runId ?? input.runId}:inference:${input.iteration}`;
      const why = reasonForRetry(failures, key);
      const started = Date.now();
      // The carried batch is written while the model works; the call ends only once both are done,
      // and a cancelled call still finishes its write (the workflow waits for it, see worker/workflows/inference.ts).
      const written = input.ledger ? ledger.write(input.ledger) : Promise.resolve();
      // Its outcome is read below; handled now so that a write failing while the tape or the limits are read is not unhandled.
      void written.catch(() => undefined);
      // A taped run asks its tape first: a recorded (or edited) step calls no model.
      const taped = input.tape
        ? replayedAnswer(input, input.tape, why, started).catch((error: unknown) => {
            throw remembered(failures, key, infrastructureFailure(error, "reading the run's tape", input.runId, attempt));
          })
        : Promise.resolve(null);
      // Checked before the model is called: a reached limit answers without calling it (the batch is still written).
      // The check reads the spend only after the batch (the last call's usage) is written, and only when a limit applies.
      // A step the tape answers costs nothing and is not checked (nor held up by a limit).
      if (input.spendCheck && (await taped.then((replayed) => replayed === null, () => false))) {
        const [checked] = await Promise.allSettled([checkSpend(input.spendCheck.rootRunId, input.runId, key, written)]);
        if (checked.status === "rejected" || checked.value) {
          const [writeDone] = await Promise.allSettled([written]);
          if (writeDone.status === "rejected") throw remembered(failures, key, infrastructureFailure(writeDone.reason, "writing the run ledger", input.runId, attempt));
          if (checked.status === "rejected") throw checked.reason;
          const spendLimit = checked.value ?? undefined;
          return { content: null, toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: Date.now() - started, attempt, startedAt: new Date(started).toISOString(), spendLimit };
        }
      }
      const answered = taped
        .then((replayed) => replayed ?? answer(input, key, why, started))
        .then((output) => withEagerTools(input, output));
      const [writeResult, answerResult] = await Promise.allSettled([written, answered]);
      if (writeResult.status === "rejected") throw remembered(failures, key, infrastructureFailure(writeResult.reason, "writing the run ledger", input.runId, attempt));
      // The batch just written holds the earlier calls' messages: their streamed text is no longer needed.
      await dropFinishedTokens(db, input.runId, input.iteration);
      if (answerResult.status === "rejected") throw answerResult.reason;
      return answerResult.value;
    },

    /** The context a handoff's receiving agent starts from, built from the ledger's messages (the workflow holds none). */
    async handoffContext(input: HandoffContextInput): Promise<string> {
      try {
        return buildHandoffContext(await readMessages(db, input.runId, input.messageCount), input);
      } catch (error) {
        throw infrastructureFailure(error, "reading the conversation for a handoff", input.runId, Context.current().info.attempt);
      }
    },

    async describeTools(input: { agent: AgentConfig; subAgents: SubAgentInfo[] }): Promise<{ tools: FunctionTool[]; errors: string[] }> {
      return withHeartbeat(() => tools.describe(input.agent, input.subAgents));
    },

    async executeTool(input: ToolActivityInput): Promise<ToolActivityOutput> {
      const context = Context.current();
      const key = `${context.info.workflowExecution?.runId ?? input.runId}:tool:${input.iteration}:${input.callId}`;
      const why = reasonForRetry(failures, key);
      const output = await runTool(input).catch((error: unknown) => {
        if (error instanceof ApplicationFailure) throw remembered(failures, key, error);
        const attempt = context.info.attempt;
        if (error instanceof McpError) {
          console.error(`worker: ${input.toolName} failed in run ${input.runId} (attempt ${attempt}):`, error.message);
          // An unreachable server rarely comes back within seconds: three attempts, then the model hears it.
          throw remembered(failures, key, ApplicationFailure.create({ type: ACTIVITY_ERRORS.toolUnavailable, message: error.publicMessage, nonRetryable: attempt >= MCP_ATTEMPTS }));
        }
        throw remembered(failures, key, infrastructureFailure(error, input.toolName, input.runId, attempt));
      });
      return { ...output, ...(why ? { retryReason: why } : {}) };
    },
  };
}

export type AgentActivities = ReturnType<typeof createAgentActivities>;
