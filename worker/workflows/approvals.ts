// Approvals inside the workflow, in one place: which rule gates a call, the
// request and its wait, the update's validator, the decision and the expiry.
// Every outcome is recorded in the database (approval record + audit event)
// through an activity *before* the workflow applies it: a decision stands if
// and only if its record exists.
import { ActivityFailure, ApplicationFailure, CancellationScope, condition, patched, proxyActivities, uuid4, workflowInfo } from "@temporalio/workflow";
import { matchesGlob } from "../../lib/agents/glob";
import type { AgentConfig } from "../../lib/agents/schemas";
import { argumentProblems } from "../../lib/engine/argument-check";
import { APPROVAL_ERRORS } from "../../lib/contract/definitions";
import { applicableRules, effectiveGate, FALLBACK_POLICY, roleMeets, type GateRequirement } from "../../lib/policy/gate";
import { BUDGET_APPROVAL_TOOL, isBudgetApproval, tokenGrantProblems } from "../../lib/contract/budget-approval";
import { isSpendLimitApproval, SPEND_LIMIT_APPROVAL_TOOL, type SpendLimitHit } from "../../lib/contract/spend-limit-approval";
import { isPlanApproval, PLAN_APPROVAL_TOOL, planEditProblems, planLimitsFor, type PlanApprovalRequest } from "../../lib/contract/plan-approval";
import type { Plan } from "../../lib/contract/plan";
import type { ApprovalRequest, ToolCall, TraceSpan } from "../../lib/contract/types";
import type { EnginePatches } from "./engine-patches";
import type { AgentRunInput, ApprovalNotification, ApprovalOutcomeRecord, DecideApprovalInput, PersonRef } from "../../lib/contract/workflow";
import type { LedgerActivities } from "../activities/ledger";
import type { NotificationActivities } from "../activities/notifications";
import type { RunState } from "./run-state";
import type { GuardrailHold } from "./guardrail-hooks";

// A regular activity, not a local one: it is scheduled by the workflow task that
// accepts the decision, so the record is written only once the decision is
// durable in history (a local activity would write it even when that task then
// fails and the update is dropped). No attempt limit: a busy database delays
// the decision, it never loses its record; the call runs only after it lands.
const { recordApprovalOutcome } = proxyActivities<LedgerActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { initialInterval: "200 milliseconds", backoffCoefficient: 2, maximumInterval: "10 seconds" },
});

// A regular activity: deliveries retry with backoff for about ten minutes,
// independently of the run (a slow receiver never holds up an approval).
const { notifyApproval } = proxyActivities<NotificationActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "2 minutes", maximumAttempts: 10 },
});

export { argumentProblems };

/**
 * What a call of `toolName` by `agent` needs before it runs, or null: the
 * run's workspace policy (fixed at its start) with the agent's own rules and
 * those inherited from its ancestors.
 */
export function gateFor(input: AgentRunInput, agent: AgentConfig, toolName: string, patches: Pick<EnginePatches, "workspaceGateAtStart">): GateRequirement | null {
  if (input.gate) return effectiveGate(input.gate.policy, applicableRules(agent.approvalRules, input.gate.inheritedRules), toolName);
  // A run without a gate decided at its start (engine-patches.ts workspaceGateAtStart): the strict fallback.
  if (patches.workspaceGateAtStart) return effectiveGate(FALLBACK_POLICY, agent.approvalRules, toolName);
  // An execution from before that decision: its history was written under the graph's first matching
  // rule alone, so a replay must decide the same way; once past that history it gets the strict fallback.
  if (!patched(WORKSPACE_GATE_PATCH)) return legacyGate(agent, toolName);
  return effectiveGate(FALLBACK_POLICY, agent.approvalRules, toolName);
}

/**
 * Marks, in the history of runs started without a gate before workspace-gate-at-start, where the workspace
 * policy's fallback took over (asked mid-run, at the first gated call; newer executions decide at their start).
 */
const WORKSPACE_GATE_PATCH = "workspace-approval-gate";

function legacyGate(agent: AgentConfig, toolName: string): GateRequirement | null {
  const rule = agent.approvalRules.find((r) => matchesGlob(r.pattern, toolName));
  if (!rule) return null;
  const { requiredApprovals, expiresInSeconds, onExpiry, allowSelfApproval } = rule;
  return { requiredRole: rule.requiredRole ?? null, requiredApprovals, expiresInSeconds, onExpiry, allowSelfApproval, reason: "rule" };
}

/** Parses tool arguments: a JSON object, or a problem to report to the model. */
export function parseCallArguments(raw: string): { args: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch {
    return { problem: "the arguments are not valid JSON" };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { problem: "the arguments must be a JSON object" };
  return { args: value as Record<string, unknown> };
}

function refuse(type: string, message: string): never {
  throw ApplicationFailure.create({ type, message, nonRetryable: true });
}

/**
 * Each run's approvals, by its state: the token budget is checked where only the
 * run state is at hand (after a model call, after a sub-agent's reply) and asks
 * through them. A WeakMap holds no run alive and is never iterated (deterministic).
 */
const approvalsOfRun = new WeakMap<RunState, Approvals>();

/** The approvals of the run whose state this is (the latest created for it). */
export function approvalsOf(state: RunState): Approvals | undefined {
  return approvalsOfRun.get(state);
}

/** A run at its token budget asking for more (run limits onBudget "ask"). */
export interface TokenRequest {
  used: number;
  limit: number;
  requested: number;
  /** The latest the request may expire (workflow time, ms): the run's own deadline. */
  expiresBy: number;
}

export class Approvals {
  /** Approvals whose outcome is being recorded; a concurrent decision waits, then sees the result. */
  private readonly deciding = new Set<string>();
  private readonly notifications = new Set<Promise<void>>();

  constructor(
    private readonly state: RunState,
    private readonly input: AgentRunInput,
    private readonly schemaOf: (toolName: string) => Record<string, unknown> | undefined,
    private readonly onChange: () => void,
  ) {
    approvalsOfRun.set(state, this);
  }

  /** The update's validator: runs before the update is accepted into history. */
  validate(decision: DecideApprovalInput): void {
    // Cheap early refusal; the signature itself is checked by the activity that records the decision
    // (workflow code holds no key: it would be in history).
    if (!decision.signature || !decision.issuedAt) refuse(APPROVAL_ERRORS.forbidden, "the decision is not signed by the web server");
    const approval = this.state.approvals.get(decision.approvalId);
    if (!approval) refuse(APPROVAL_ERRORS.notFound, `no pending approval ${decision.approvalId} in run ${workflowInfo().workflowId}`);
    refuseIfFinal(approval);
    // Checked here only (validators do not run on replay): histories accepted under the older checks replay as they ran.
    if (approval.requiredRole && !roleMeets(decision.decidedBy.role, approval.requiredRole)) {
      refuse(APPROVAL_ERRORS.forbidden, `approval ${approval.id} needs the ${approval.requiredRole} role`);
    }
    if (decision.approved && decision.editedArguments && approval.requiredApprovals > 1) {
      // The earlier approvers saw other arguments: an edit would let the last one run a call nobody else approved.
      refuse(APPROVAL_ERRORS.invalidArguments, `a call that needs ${approval.requiredApprovals} approvals cannot be edited (every approver must see the call that runs): reject it with a reason instead`);
    }
    refuseIfIneligible(approval, decision);
    if (decision.editedArguments && isSpendLimitApproval(approval)) {
      refuse(APPROVAL_ERRORS.invalidArguments, "a spend limit request cannot be edited: raise the limit (Spend limits), then approve, or reject to stop the run");
    } else if (decision.editedArguments && isBudgetApproval(approval)) {
      const problems = tokenGrantProblems(decision.editedArguments);
      if (problems.length) refuse(APPROVAL_ERRORS.invalidArguments, `the granted amount is invalid: ${problems.join("; ")}`);
    } else if (decision.editedArguments && isPlanApproval(approval)) {
      const problems = planEditProblems(decision.editedArguments, planLimitsFor(this.input.graph));
      if (problems.length) refuse(APPROVAL_ERRORS.invalidArguments, `the edited plan is invalid: ${problems.join("; ")}`);
    } else if (decision.editedArguments) {
      const problems = argumentProblems(decision.editedArguments, this.schemaOf(approval.toolName));
      if (problems.length) refuse(APPROVAL_ERRORS.invalidArguments, `edited arguments are invalid: ${problems.join("; ")}`);
    }
  }

  /** The update's handler: records the decision (or endorsement), then applies it. */
  async decide(decision: DecideApprovalInput): Promise<ApprovalRequest> {
    const approval = this.state.approvals.get(decision.approvalId);
    if (!approval) refuse(APPROVAL_ERRORS.notFound, `no pending approval ${decision.approvalId}`);
    // Decisions on one approval are applied one at a time; a later one sees what the earlier one did
    // (two simultaneous approvers of a single-approval call: the second hears who won).
    // The check and the claim below run without an await in between: handlers interleave only at awaits.
    while (this.deciding.has(approval.id)) await condition(() => !this.deciding.has(approval.id));
    refuseIfFinal(approval);
    refuseIfIneligible(approval, decision);
    this.deciding.add(approval.id);
    const at = new Date(Date.now()).toISOString();
    const endorsed = decision.approved && approval.endorsements.length + 1 < approval.requiredApprovals;
    const status = !decision.approved ? "rejected" : endorsed ? "endorsed" : "approved";
    try {
      await this.record({
        approval: { ...approval },
        status,
        reason: decision.reason ?? null,
        editedArguments: decision.editedArguments ?? null,
        decidedBy: decision.decidedBy,
        decidedAt: at,
        signature: decision.signature,
        issuedAt: decision.issuedAt,
      });
    } catch (error) {
      // A forged or stale decision: nothing was recorded, the approval stays pending.
      if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === APPROVAL_ERRORS.badSignature) {
        refuse(APPROVAL_ERRORS.forbidden, error.cause.message);
      }
      throw error;
    } finally {
      this.deciding.delete(approval.id);
    }
    if (decision.approved) approval.endorsements.push({ by: decision.decidedBy, at, ...(decision.reason ? { reason: decision.reason } : {}) });
    if (status === "endorsed") {
      this.state.emit({ type: "approval_endorsed", approvalId: approval.id, tool: approval.toolName, by: decision.decidedBy.email, approvals: approval.endorsements.length, required: approval.requiredApprovals });
      this.notify("approval.endorsed", approval);
      this.onChange();
      return { ...approval };
    }
    approval.status = status;
    approval.decision = { approved: decision.approved, reason: decision.reason, editedArguments: decision.editedArguments, decidedBy: decision.decidedBy, decidedAt: at };
    this.state.recordApproval(approval);
    this.state.emit({ type: "approval_decided", approvalId: approval.id, tool: approval.toolName, status, decidedBy: decision.decidedBy.email, reason: decision.reason ?? null });
    this.notify(status === "approved" ? "approval.approved" : "approval.rejected", approval);
    this.onChange();
    return { ...approval };
  }

  private record(outcome: ApprovalOutcomeRecord): Promise<void> {
    // Not cancellable: once a decision is accepted, its record must land even if the run is being cancelled.
    return CancellationScope.nonCancellable(() => recordApprovalOutcome(outcome));
  }

  /** Tells the webhook (if configured); delivery retries on its own and never holds up the run. */
  private notify(event: ApprovalNotification["event"], approval: ApprovalRequest): void {
    const delivery = CancellationScope.nonCancellable(() => notifyApproval({ event, approval: { ...approval }, at: new Date(Date.now()).toISOString() })).catch(() => undefined);
    this.notifications.add(delivery);
    void delivery.then(() => this.notifications.delete(delivery));
  }

  /** Resolves once every notification sent so far was delivered or gave up (the run waits for it before it closes). */
  async delivered(): Promise<void> {
    await CancellationScope.nonCancellable(() => Promise.all([...this.notifications]));
  }

  /**
   * Withdraws the approvals still pending when their turn was interrupted (follow-ups.ts): each is recorded
   * as withdrawn (the inbox stops showing it) and leaves the run's state, so a late decision finds it gone.
   */
  async withdrawPending(reason: string): Promise<string[]> {
    const pending = this.state.pendingApprovals().filter((a) => !this.deciding.has(a.id));
    const decidedAt = new Date(Date.now()).toISOString();
    await Promise.all(pending.map((approval) => this.record({ approval: { ...approval }, status: "withdrawn", reason, editedArguments: null, decidedBy: null, decidedAt })));
    for (const approval of pending) this.state.approvals.delete(approval.id);
    if (pending.length) this.onChange();
    return pending.map((a) => a.id);
  }

  /** Requests approval for a call and waits for the decision or the expiry. */
  request(call: ToolCall, args: Record<string, unknown>, rule: GateRequirement, agentName: string, parent: TraceSpan, guardrail?: GuardrailHold): Promise<ApprovalRequest> {
    const now = Date.now();
    const approval: ApprovalRequest = {
      id: uuid4(),
      runId: workflowInfo().workflowId,
      parentRunId: this.input.parentRunId,
      rootRunId: this.input.rootRunId,
      agentName,
      toolName: call.function.name,
      toolCallId: call.id,
      arguments: args,
      requestedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + rule.expiresInSeconds * 1000).toISOString(),
      requiredRole: rule.requiredRole,
      requiredApprovals: rule.requiredApprovals,
      endorsements: [],
      requestedBy: this.input.startedBy,
      ...selfOf(this.input, this.state.turnSender),
      allowSelfApproval: rule.allowSelfApproval,
      onExpiry: rule.onExpiry,
      status: "pending",
      decision: null,
      // Only a call a guardrail sent to the inbox names it, with why (every other approval keeps its shape).
      ...(guardrail ? { guardrail: guardrail.name, guardrailVerdict: { check: guardrail.check, reason: guardrail.reason } } : {}),
    };
    return this.awaitDecision(approval, rule.expiresInSeconds * 1000, guardrail ? `approval for ${approval.toolName} (guardrail ${guardrail.name})` : `approval for ${approval.toolName}`, parent.id);
  }

  /**
   * Asks an approver for more tokens and waits for the decision or the expiry
   * (a rejection on expiry). One approval, from the workspace policy's role and
   * self-approval floor; it expires within the policy's longest expiry and
   * never after the run's own deadline.
   */
  requestTokens(ask: TokenRequest): Promise<ApprovalRequest> {
    const { state } = this;
    const asked = this.policyApproval(BUDGET_APPROVAL_TOOL, { tokens: ask.requested }, ask.expiresBy);
    const approval: ApprovalRequest = { ...asked.approval, kind: "budget", budget: { used: ask.used, limit: ask.limit } };
    state.emit({ type: "budget_extension_requested", approvalId: approval.id, used: ask.used, limit: ask.limit, requested: ask.requested });
    return this.awaitDecision(approval, asked.waitMs, "approval for more tokens", state.runSpanId || null);
  }

  /**
   * Asks to go on past a reached spend limit (its onReached "ask", spend-limit.ts) and waits for the decision
   * or the expiry (a rejection on expiry). Like a request for tokens: one approval, from the workspace policy's
   * floors, expiring within its longest expiry and before the run's own deadline. Nothing may be edited.
   */
  requestSpendLimit(hit: SpendLimitHit, expiresBy: number): Promise<ApprovalRequest> {
    const asked = this.policyApproval(SPEND_LIMIT_APPROVAL_TOOL, { limitId: hit.limitId }, expiresBy);
    const approval: ApprovalRequest = { ...asked.approval, kind: "spend_limit", spendLimit: hit };
    return this.awaitDecision(approval, asked.waitMs, "approval to go on past a spend limit", this.state.runSpanId || null);
  }

  /**
   * Asks an approver to let the planner's plan run (graph plan.approval) and
   * waits for the decision or the expiry (a rejection on expiry). Like a
   * request for tokens: one approval, from the workspace policy's floors,
   * expiring within its longest expiry and before the run's own deadline.
   * The approver may edit the plan within the graph's cards and size.
   */
  requestPlan(plan: Plan, expiresBy: number, parentSpanId: string | null): Promise<ApprovalRequest> {
    const { approval, waitMs } = this.policyApproval(PLAN_APPROVAL_TOOL, { plan }, expiresBy);
    const request: PlanApprovalRequest = { ...approval, kind: "plan", planLimits: planLimitsFor(this.input.graph) };
    return this.awaitDecision(request, waitMs, "approval of the plan", parentSpanId);
  }

  /** An approval the run itself asks for (not a tool call): the workspace policy's role and self-approval floor, one approver, rejected on expiry. */
  private policyApproval(toolName: string, args: Record<string, unknown>, expiresBy: number): { approval: ApprovalRequest; waitMs: number } {
    const { state, input } = this;
    const { floors } = input.gate?.policy ?? FALLBACK_POLICY;
    const now = Date.now();
    const waitMs = Math.max(1000, Math.min(floors.maxExpiresInSeconds * 1000, expiresBy - now));
    const id = uuid4();
    const approval: ApprovalRequest = {
      id,
      runId: workflowInfo().workflowId,
      parentRunId: input.parentRunId,
      rootRunId: input.rootRunId,
      agentName: state.currentAgent ?? input.agentName,
      toolName,
      toolCallId: id,
      arguments: args,
      requestedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + waitMs).toISOString(),
      requiredRole: floors.requiredRole ?? null,
      requiredApprovals: 1,
      endorsements: [],
      requestedBy: input.startedBy,
      ...selfOf(input, state.turnSender),
      allowSelfApproval: floors.allowSelfApproval,
      onExpiry: "reject",
      status: "pending",
      decision: null,
    };
    return { approval, waitMs };
  }

  /** Makes an approval pending (recorded, on the trace, announced) and waits for its decision or expiry. */
  private async awaitDecision(approval: ApprovalRequest, waitMs: number, spanName: string, parentSpanId: string | null): Promise<ApprovalRequest> {
    const { state } = this;
    state.approvals.set(approval.id, approval);
    state.recordApproval(approval);
    const span = state.startSpan("approval_wait", spanName, parentSpanId, { approvalId: approval.id, deadline: approval.expiresAt });
    state.emit({ type: "approval_requested", approval: { ...approval } });
    this.notify("approval.requested", approval);
    this.onChange();
    const decided = await condition(() => approval.status !== "pending", waitMs);
    if (!decided) await this.expireOrAwaitDecision(approval);
    state.endSpan(span, mayRun(approval) ? "ok" : "error", { attributes: { decision: approval.status, ended: decided ? "decision" : "fired" } });
    this.onChange();
    return approval;
  }

  private async expireOrAwaitDecision(approval: ApprovalRequest): Promise<void> {
    // A decision being recorded when the timer fires goes first; if it settles the call, the expiry is moot.
    while (this.deciding.has(approval.id)) await condition(() => !this.deciding.has(approval.id));
    if (approval.status !== "pending") return;
    this.deciding.add(approval.id);
    const decidedAt = new Date(Date.now()).toISOString();
    const reason = approval.onExpiry === "approve" ? "expired; the rule approves on expiry" : "expired";
    try {
      await this.record({ approval: { ...approval }, status: "expired", reason, editedArguments: null, decidedBy: null, decidedAt });
    } finally {
      this.deciding.delete(approval.id);
    }
    approval.status = "expired";
    this.state.recordApproval(approval);
    this.state.emit({ type: "approval_decided", approvalId: approval.id, tool: approval.toolName, status: "expired", decidedBy: null, reason });
    this.notify("approval.expired", approval);
  }
}

/** Whether the gated call may run: approved, or expired under a rule that approves on expiry. */
export function mayRun(approval: ApprovalRequest): boolean {
  return approval.status === "approved" || (approval.status === "expired" && approval.onExpiry === "approve");
}

/**
 * The people who count as "self" for a run's approvals: who started it, who
 * wrote the version it runs, and who sent the follow-up the current turn answers
 * (this run's, or for a child run, its ancestors').
 */
function selfOf(input: AgentRunInput, turnSender: PersonRef | null): { selfIds: string[]; selfEmails: string[] } {
  const people = [input.gate?.starter, input.gate?.author, ...(input.gate?.senders ?? []), turnSender].filter((p): p is { id: string; email: string } => Boolean(p));
  const emails = people.map((p) => p.email);
  if (input.startedBy) emails.push(input.startedBy);
  return { selfIds: [...new Set(people.map((p) => p.id))], selfEmails: [...new Set(emails.map((e) => e.toLowerCase()))] };
}

function refuseIfFinal(approval: ApprovalRequest): void {
  if (approval.status === "pending") return;
  const by = approval.decision?.decidedBy.email;
  refuse(APPROVAL_ERRORS.alreadyDecided, `approval ${approval.id} is already ${approval.status}${by ? ` by ${by}` : ""}`);
}

/** Policy checks that depend on who decides: self-approval, and one approval per person. */
function refuseIfIneligible(approval: ApprovalRequest, decision: DecideApprovalInput): void {
  if (!decision.approved) return;
  if (!approval.allowSelfApproval) {
    const ids = approval.selfIds ?? [];
    const emails = approval.selfEmails ?? (approval.requestedBy ? [approval.requestedBy.toLowerCase()] : []);
    if (ids.includes(decision.decidedBy.id) || emails.includes(decision.decidedBy.email.toLowerCase())) {
      refuse(APPROVAL_ERRORS.forbidden, `${decision.decidedBy.email} started this run, wrote the agent version it runs or sent the message the call follows, and may not approve its calls`);
    }
  }
  if (approval.endorsements.some((e) => e.by.id === decision.decidedBy.id)) {
    refuse(APPROVAL_ERRORS.alreadyDecided, `${decision.decidedBy.email} already approved ${approval.id}; it needs ${approval.requiredApprovals} different approvers`);
  }
  if (decision.editedArguments && approval.endorsements.length + 1 < approval.requiredApprovals) {
    refuse(APPROVAL_ERRORS.invalidArguments, `edit the arguments with the last of the ${approval.requiredApprovals} approvals, so every approver sees the call that runs`);
  }
}
