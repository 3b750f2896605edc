// What an orchestration mode's turn sees of the agent loop (agent-loop.ts):
// the run, the agent speaking, the loop's iterations, budgets and approvals.
// Each mode — the plain loop, the router (routing.ts), the planner
// (planning.ts) — is one function of a TurnContext, so a mode's module holds
// its whole turn and the loop only picks which one runs.
import type { AgentConfig } from "../../lib/agents/schemas";
import type { AgentRunInput } from "../../lib/contract/workflow";
import type { Approvals } from "./approvals";
import type { TurnResult } from "./final-answer";
import type { RunState } from "./run-state";

export interface TurnContext {
  readonly state: RunState;
  readonly input: AgentRunInput;
  /** The agent speaking (its own model, or the inherited one: DD-7). */
  readonly agent: AgentConfig;
  readonly approvals: Approvals;
  /** When the turn must have its final answer (workflow time, ms). */
  readonly deadline: number;
  /** The agent's iterations until it answers (typed answers accepted or repaired) or hands off. */
  iterate(): Promise<TurnResult>;
  /** The span a mode's records hang under: the last iteration (it ended when its answer was accepted), else the run span. */
  parentSpan(): string;
  /** Checks the token budget: a promise only while an approver is asked for more tokens (onBudget "ask"). */
  checkBudget(): Promise<void> | undefined;
  /** Why work in flight stops when `error` ends the turn (a plan records it on the nodes it cancels). */
  stopReason(error: unknown): string;
}

/** A mode's turn: the answer, or a handoff to another agent. */
export type TurnMode = (turn: TurnContext) => Promise<TurnResult>;
