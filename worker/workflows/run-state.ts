// The state of one run: messages, events, spans, counters, conversations and
// approvals. Deterministic (workflow time only) and fully serialisable, so it
// survives continue-as-new intact.
import type { CarriedState, UserMessageSignal } from "../../lib/engine/workflow-types";
import type {
  ApprovalRequest,
  ChatMessage,
  Conversation,
  FailureReason,
  RunEvent,
  RunStatus,
  SpanKind,
  TokenUsage,
  TraceNode,
  TraceSpan,
} from "../../lib/engine/types";

type EventInput = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never;

const nowIso = () => new Date(Date.now()).toISOString();

export class RunState {
  generation = 0;
  startedAt = nowIso();
  messages: ChatMessage[] = [];
  events: RunEvent[] = [];
  spans: TraceSpan[] = [];
  iteration = 0;
  iterationsThisTurn = 0;
  inTurn = false;
  turnStartedAt: string | null = null;
  turn = 0;
  usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  budgetWarned = false;
  conversations = new Map<string, Conversation>();
  approvals = new Map<string, ApprovalRequest>();
  inbox: UserMessageSignal[] = [];
  spanCounter = 0;
  runSpanId = "";
  lastOutput: string | null = null;

  /** Not carried: live counters of the current workflow execution. */
  baseStatus: RunStatus = "pending";
  terminal: { status: "failed" | "cancelled"; reason: FailureReason; message: string } | null = null;
  toolsInFlight = 0;
  endedAt: string | null = null;

  static restore(carried: CarriedState): RunState {
    const state = new RunState();
    Object.assign(state, {
      ...carried,
      conversations: new Map(carried.conversations.map((c) => [c.conversationId, c])),
      approvals: new Map(carried.approvals.map((a) => [a.id, a])),
    });
    state.generation = carried.generation + 1;
    state.baseStatus = carried.inTurn ? "thinking" : carried.lastOutput !== null ? "completed" : "pending";
    return state;
  }

  snapshot(): CarriedState {
    return {
      generation: this.generation,
      startedAt: this.startedAt,
      messages: this.messages,
      events: this.events,
      spans: this.spans,
      iteration: this.iteration,
      iterationsThisTurn: this.iterationsThisTurn,
      inTurn: this.inTurn,
      turnStartedAt: this.turnStartedAt,
      turn: this.turn,
      usage: this.usage,
      budgetWarned: this.budgetWarned,
      conversations: [...this.conversations.values()],
      approvals: [...this.approvals.values()],
      inbox: this.inbox,
      spanCounter: this.spanCounter,
      runSpanId: this.runSpanId,
      lastOutput: this.lastOutput,
    };
  }

  emit(event: EventInput): RunEvent {
    const full = { ...event, seq: this.events.length + 1, at: nowIso() } as RunEvent;
    this.events.push(full);
    return full;
  }

  eventsSince(seq: number, limit = 1000): RunEvent[] {
    // seq is 1-based and dense, so the slice start is the sequence number itself.
    return this.events.slice(Math.max(0, seq), Math.max(0, seq) + limit);
  }


  startSpan(kind: SpanKind, name: string, parentId: string | null, attributes?: TraceSpan["attributes"]): TraceSpan {
    const span: TraceSpan = { id: `s${++this.spanCounter}`, parentId, kind, name, startedAt: nowIso(), endedAt: null, status: "running", attributes };
    this.spans.push(span);
    return span;
  }

  endSpan(span: TraceSpan, status: "ok" | "error", extra: Partial<Pick<TraceSpan, "tokens" | "attempts" | "attributes">> = {}): void {
    span.endedAt = nowIso();
    span.status = status;
    if (extra.tokens) span.tokens = extra.tokens;
    if (extra.attempts !== undefined) span.attempts = extra.attempts;
    if (extra.attributes) span.attributes = { ...span.attributes, ...extra.attributes };
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

  traceTree(): TraceNode[] {
    const nodes = new Map<string, TraceNode>(this.spans.map((s) => [s.id, { ...s, children: [] }]));
    const roots: TraceNode[] = [];
    for (const node of nodes.values()) {
      const parent = node.parentId ? nodes.get(node.parentId) : undefined;
      if (parent) parent.children.push(node);
      else roots.push(node);
    }
    return roots;
  }
}
