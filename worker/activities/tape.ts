// The tape at the engine's two chokepoints: the model call and the tool call.
// A taped run (AgentRunInput.tape: a fork, an experiment) asks the tape first;
// a step found there is not executed (no model call, no side effect) and is
// reported as replayed, with no usage. The lookups are indexed reads
// (lib/tapes/server/tape-store.ts); a tool_call entry is claimed by the call
// that takes it, so a retried activity gets the same entry and two parallel
// calls never share one.
import type { TokenUsage } from "../../lib/contract/types";
import type { Db } from "../../lib/db/prisma";
import type { RecordedDecision, RecordedModelResponse, TapeEdit, TapeSettings } from "../../lib/tapes/schemas";
import { findModelEntry, findToolEntry, readTapeSettings, type RecordedToolResult } from "../../lib/tapes/server/tape-store";
import type { ToolOutcome } from "../tools/types";

/** What a model or tool activity of a taped run carries: the tape and where the run sits in its tree. */
export interface TapeCall {
  tapeId: string;
  path: string;
}

/** Identifies one tool call of a taped run. */
export interface TapeToolCall {
  tape: TapeCall;
  runId: string;
  iteration: number;
  callId: string;
  tool: string;
  rawArguments: string;
}

/** What the tape says about a tool call: its recorded (or, `edited`, written) result, or that it may run, or that it may not. */
export type TapeToolAnswer =
  | { kind: "recorded"; outcome: ToolOutcome; approval?: RecordedDecision; edited?: TapeEdit }
  | { kind: "live" }
  | { kind: "refused"; outcome: ToolOutcome };

/** What an approval-gated call of a taped run gets before any approval opens (tool-calls.ts). */
export type TapeGateAnswer =
  | { kind: "recorded"; outcome: ToolOutcome; approval?: RecordedDecision; edited?: TapeEdit }
  /** No recorded decision: the tape's policy decides (an experiment never reaches the inbox). */
  | { kind: "auto"; approved: boolean; reason: string }
  /** No recorded decision and the policy is "inbox": a normal approval. */
  | { kind: "inbox" };

export const POLICY_REASON = "decided by the experiment's policy";
export const GATED_NOT_LIVE_REASON = "an approval-gated call does not run live in an experiment: record it on the item's tape or declare a stub";

export const noLiveResult = (tool: string) => `No recorded result for ${tool} and it may not run live in this experiment`;

const ZERO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0 };

function recordedOutcome(recorded: RecordedToolResult): ToolOutcome {
  if (recorded.outcome === "ok") return { ok: true, content: recorded.result };
  return { ok: false, content: recorded.result, errorKind: recorded.outcome === "rejected" ? "rejected" : "execution" };
}

/** Tapes never change once stored: their settings are read once per worker process (bounded). */
const SETTINGS_CAPACITY = 500;

export function createTapeAccess(db: Db) {
  const settingsCache = new Map<string, TapeSettings>();

  async function settingsOf(tapeId: string): Promise<TapeSettings> {
    const cached = settingsCache.get(tapeId);
    if (cached) return cached;
    const settings = await readTapeSettings(db, tapeId);
    // A tape removed under a running run: nothing is recorded, and nothing more may run live than an experiment allows.
    const found = settings ?? { live: { tools: [] }, approvals: "reject" };
    settingsCache.set(tapeId, found);
    if (settingsCache.size > SETTINGS_CAPACITY) settingsCache.delete(settingsCache.keys().next().value ?? tapeId);
    return found;
  }

  const claimKey = (call: TapeToolCall) => `${call.runId}:${call.iteration}:${call.callId}`;
  const lookup = (call: TapeToolCall) =>
    findToolEntry(db, call.tape.tapeId, { tool: call.tool, rawArguments: call.rawArguments, path: call.tape.path, iteration: call.iteration, callId: call.callId, claimKey: claimKey(call) });

  return {
    /** The model response on the tape at this step, as the model call's answer (usage 0, the recorded usage kept; `edited` when written), or null. */
    async model(tape: TapeCall, iteration: number): Promise<{ response: RecordedModelResponse; usage: TokenUsage; edited?: TapeEdit } | null> {
      const found = await findModelEntry(db, tape.tapeId, tape.path, iteration);
      return found ? { ...found, usage: ZERO_USAGE } : null;
    },

    /** The tape's answer for a tool call about to run. */
    async tool(call: TapeToolCall): Promise<TapeToolAnswer> {
      const recorded = await lookup(call);
      if (recorded) return { kind: "recorded", outcome: recordedOutcome(recorded), ...(recorded.approval ? { approval: recorded.approval } : {}), ...(recorded.edited ? { edited: recorded.edited } : {}) };
      const { live } = await settingsOf(call.tape.tapeId);
      if (live === "all" || live.tools.includes(call.tool)) return { kind: "live" };
      return { kind: "refused", outcome: { ok: false, errorKind: "execution", content: noLiveResult(call.tool) } };
    },

    /** The tape's answer for an approval-gated call, before the gate opens an approval. */
    async gate(call: TapeToolCall): Promise<TapeGateAnswer> {
      const recorded = await lookup(call);
      if (recorded) return { kind: "recorded", outcome: recordedOutcome(recorded), ...(recorded.approval ? { approval: recorded.approval } : {}), ...(recorded.edited ? { edited: recorded.edited } : {}) };
      const { approvals, live } = await settingsOf(call.tape.tapeId);
      if (approvals === "inbox") return { kind: "inbox" };
      // An automatic approval must never let a gated call act for real: that would let whoever starts an
      // experiment step around the approval gate that checks them. Nothing recorded or stubbed and the tool
      // allowed live: it is rejected, so the call never runs without a person's decision.
      if (approvals === "approve" && (live === "all" || live.tools.includes(call.tool))) return { kind: "auto", approved: false, reason: GATED_NOT_LIVE_REASON };
      return { kind: "auto", approved: approvals === "approve", reason: POLICY_REASON };
    },
  };
}

export type TapeAccess = ReturnType<typeof createTapeAccess>;
