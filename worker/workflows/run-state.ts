// The state of one run: counters, open spans, conversations and approvals.
// Deterministic (workflow time only) and bounded: events, spans and messages
// go to an outbox that the run ledger writes to the database, so what the
// workflow holds and carries across continue-as-new does not grow with the run.
import type { CarriedState, LedgerBatch, PersonRef, UserMessageSignal } from "../../lib/contract/workflow";
import type { EnginePatches } from "./engine-patches";
import type { ApprovalRequest, ChatMessage, Conversation, FailureDetails, FailureReason, RunEvent, RunStatus, SpanKind, TokenUsage, TraceSpan } from "../../lib/contract/types";

type EventInput = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never;

const nowIso = () => new Date(Date.now()).toISOString();

/**
 * A sub-agent conversation as the parent keeps it. `spentTokens` (what its
 * replies reported so far) is set only on conversations started with a share
 * of the run's tokens (sub-agents.ts): each later turn's limit is counted on
 * top of it. It travels inside the carried conversation, so it survives
 * continue-as-new; conversations carried from before have none and keep the
 * whole graph budget they were started with.
 */
export type ConversationRecord = Conversation & { spentTokens?: number };

/** Decided approvals kept in memory (so a late decision hears "already decided"); older ones live only in the ledger. */
const DECIDED_APPROVALS_KEPT = 50;

/** What the ledger has not written yet. */
export class LedgerOutbox {
  events: RunEvent[] = [];
  spans = new Map<string, TraceSpan>();
  messages: { index: number; message: ChatMessage }[] = [];
  approvals = new Map<string, ApprovalRequest>();
  summaryChanged = false;

  hasWork(): boolean {
    return this.summaryChanged || this.events.length > 0 || this.spans.size > 0 || this.messages.length > 0 || this.approvals.size > 0;
  }

  /** Takes everything pending, leaving the outbox empty. */
  take(): Pick<LedgerBatch, "events" | "spans" | "messages" | "approvals"> {
    const taken = { events: this.events, spans: [...this.spans.values()], messages: this.messages, approvals: [...this.approvals.values()] };
    this.events = [];
    this.spans = new Map();
    this.messages = [];
    this.approvals = new Map();
    this.summaryChanged = false;
    return taken;
  }

  /**
   * Puts back a batch whose carrier failed or was cancelled (it may have been
   * written or not: writes are idempotent). It goes before what was emitted
   * since, and never replaces a newer state of the same span or approval.
   */
  restore(batch: Pick<LedgerBatch, "events" | "spans" | "messages" | "approvals">): void {
    this.events = [...batch.events, ...this.events];
    this.messages = [...batch.messages, ...this.messages];
    const spans = new Map(batch.spans.map((s) => [s.id, s]));
    for (const [id, span] of this.spans) spans.set(id, span);
    this.spans = spans;
    const approvals = new Map(batch.approvals.map((a) => [a.id, a]));
    for (const [id, approval] of this.approvals) approvals.set(id, approval);
    this.approvals = approvals;
    this.summaryChanged = true;
  }
}

export class RunState {
  generation = 0;
  startedAt = nowIso();
  lastSeq = 0;
  messageCount = 0;
  openSpans = new Map<string, TraceSpan>();
  iteration = 0;
  iterationsThisTurn = 0;
  inTurn = false;
  /** The run's loop has ended (idle long enough): it takes no more messages (not carried: a new execution is open). */
  closed = false;
  turnStartedAt: string | null = null;
  turn = 0;
  usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  budgetWarned = false;
  conversations = new Map<string, ConversationRecord>();
  approvals = new Map<string, ApprovalRequest>();
  inbox: UserMessageSignal[] = [];
  spanCounter = 0;
  runSpanId = "";
  lastOutput: string | null = null;
  endedAt: string | null = null;
  currentAgent: string | null = null;
  conversationStart = 0;
  handoffDepth = 0;
  turnStartIteration = 0;
  outputData: string | null = null;
  routedTo: string | null = null;
  budgetGranted = 0;
  handoffModel: string | null = null;
  /** The children a router gave this turn's task to that failed: never offered again this turn. */
  routingFailures: { agentName: string; reason: string }[] = [];
  /** Rejections of this turn's plan so far. */
  planRejections = 0;
  /** Plans this run has executed. */
  plansExecuted = 0;
  /** Who sent the message this turn answers (a follow-up's sender): "self" for the approvals of its calls. */
  turnSender: PersonRef | null = null;
  /** Set once, at the execution's start (agent-run.ts); unset for states built outside a workflow (an inline plan node's activity). */
  private decidedPatches: EnginePatches | null = null;
  /**
   * Behaviour changes this execution runs with (engine-patches.ts); decided at its start, not carried.
   * No default: a default of "every patch applies" would read as true in code that runs before the
   * decision or outside a workflow, which is exactly where a wrong answer would go unnoticed.
   */
  get patches(): EnginePatches {
    if (!this.decidedPatches) throw new Error("the run's engine patches are read before they were decided (engine-patches.ts decidePatches)");
    return this.decidedPatches;
  }
  set patches(patches: EnginePatches) {
    this.decidedPatches = patches;
  }

  /** Not carried: live counters of the current workflow execution. */
  baseStatus: RunStatus = "pending";
  terminal: { status: "failed" | "cancelled"; reason: FailureReason; message: string; details?: FailureDetails } | null = null;
  toolsInFlight = 0;
  /** Repairs asked for in the current turn's answer (not carried: a new execution starts counting again, still bounded by maxIterations). */
  repairsThisTurn = 0;
  /** The message that opened the current turn (a router's children and a handoff's receiver work on it); not carried. */
  turnTask = "";
  /** Plans the planner has answered in this turn (the accepted one's attempt number); not carried. */
  planAttempts = 0;
  /** The task as the input guardrails left it (masked, or withheld when blocked), when they changed it; not carried (the row keeps it). */
  maskedTask: string | null = null;
  /** Rewrites output guardrails asked for in the current turn; not carried (a new execution counts again, still bounded by maxIterations). */
  guardrailRewrites = 0;
  readonly outbox = new LedgerOutbox();

  static restore(carried: CarriedState): RunState {
    const state = new RunState();
    const { openSpans, conversations, approvals, ...rest } = carried;
    Object.assign(state, rest);
    state.openSpans = new Map(openSpans.map((s) => [s.id, s]));
    state.conversations = new Map(conversations.map((c) => [c.conversationId, c]));
    state.approvals = new Map(approvals.map((a) => [a.id, a]));
    state.generation = carried.generation + 1;
    state.baseStatus = carried.inTurn ? "thinking" : carried.lastOutput !== null ? "completed" : "pending";
    return state;
  }

  snapshot(): CarriedState {
    const approvals = [...this.approvals.values()];
    const decided = approvals.filter((a) => a.status !== "pending");
    const kept = new Set(decided.slice(-DECIDED_APPROVALS_KEPT).map((a) => a.id));
    return {
      generation: this.generation,
      startedAt: this.startedAt,
      lastSeq: this.lastSeq,
      messageCount: this.messageCount,
      openSpans: [...this.openSpans.values()],
      iteration: this.iteration,
      iterationsThisTurn: this.iterationsThisTurn,
      inTurn: this.inTurn,
      turnStartedAt: this.turnStartedAt,
      turn: this.turn,
      usage: this.usage,
      budgetWarned: this.budgetWarned,
      conversations: [...this.conversations.values()],
      approvals: approvals.filter((a) => a.status === "pending" || kept.has(a.id)),
      inbox: this.inbox,
      spanCounter: this.spanCounter,
      runSpanId: this.runSpanId,
      lastOutput: this.lastOutput,
      endedAt: this.endedAt,
      // Written only once used, so runs without handoffs, typed answers or routing carry what they always did.
      ...(this.currentAgent !== null ? { currentAgent: this.currentAgent } : {}),
      ...(this.conversationStart ? { conversationStart: this.conversationStart } : {}),
      ...(this.handoffDepth ? { handoffDepth: this.handoffDepth } : {}),
      ...(this.turnStartIteration ? { turnStartIteration: this.turnStartIteration } : {}),
      ...(this.outputData !== null ? { outputData: this.outputData } : {}),
      ...(this.routedTo !== null ? { routedTo: this.routedTo } : {}),
      ...(this.budgetGranted ? { budgetGranted: this.budgetGranted } : {}),
      ...(this.handoffModel !== null ? { handoffModel: this.handoffModel } : {}),
      ...(this.routingFailures.length ? { routingFailures: this.routingFailures } : {}),
      ...(this.planRejections ? { planRejections: this.planRejections } : {}),
      ...(this.plansExecuted ? { plansExecuted: this.plansExecuted } : {}),
      ...(this.turnSender ? { turnSender: this.turnSender } : {}),
    };
  }

  emit(event: EventInput): RunEvent {
    const full = { ...event, seq: ++this.lastSeq, at: nowIso() } as RunEvent;
    this.outbox.events.push(full);
    return full;
  }

  /** Appends a message to the conversation (written to the ledger; model calls read it from there). */
  pushMessage(message: ChatMessage): void {
    this.outbox.messages.push({ index: this.messageCount++, message });
  }

  /** Marks the run row's summary as changed without an event (e.g. a status change). */
  touch(): void {
    this.outbox.summaryChanged = true;
  }

  /** Records an approval's current state for the ledger. */
  recordApproval(approval: ApprovalRequest): void {
    this.outbox.approvals.set(approval.id, { ...approval });
  }

  startSpan(kind: SpanKind, name: string, parentId: string | null, attributes?: TraceSpan["attributes"]): TraceSpan {
    const span: TraceSpan = { id: `s${++this.spanCounter}`, parentId, kind, name, startedAt: nowIso(), endedAt: null, status: "running", attributes };
    this.openSpans.set(span.id, span);
    this.outbox.spans.set(span.id, { ...span });
    return span;
  }

  endSpan(span: TraceSpan, status: "ok" | "error", extra: Partial<Pick<TraceSpan, "tokens" | "attempts" | "attributes">> = {}): void {
    span.endedAt = nowIso();
    span.status = status;
    if (extra.tokens) span.tokens = extra.tokens;
    if (extra.attempts !== undefined) span.attempts = extra.attempts;
    if (extra.attributes) span.attributes = { ...span.attributes, ...extra.attributes };
    this.openSpans.delete(span.id);
    this.outbox.spans.set(span.id, { ...span });
  }

  /** The run span, while it is open. */
  runSpan(): TraceSpan | undefined {
    return this.openSpans.get(this.runSpanId);
  }

  addUsage(usage: TokenUsage): void {
    this.usage = { inputTokens: this.usage.inputTokens + usage.inputTokens, outputTokens: this.usage.outputTokens + usage.outputTokens };
  }

  totalTokens(): number {
    return this.usage.inputTokens + this.usage.outputTokens;
  }

  pendingApprovals(): ApprovalRequest[] {
    return [...this.approvals.values()].filter((a) => a.status === "pending");
  }

  status(): RunStatus {
    if (this.terminal) return this.terminal.status;
    if (this.pendingApprovals().length > 0) return "awaiting_approval";
    if (this.toolsInFlight > 0) return "awaiting_tool";
    return this.baseStatus;
  }
}
