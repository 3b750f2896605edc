// How an experiment's item runs are taped (stored on the experiment row): what
// a gated call gets, the stubs, the tools that may run live. Read by the start
// operation and by the worker's unit activity, so no `server-only` here.
import type { TapeEntry, TapeSettings } from "../../tapes/schemas";

export interface ExperimentSettings {
  approvals: "reject" | "approve";
  stubs: { tool: string; result: string }[];
  liveTools: string[];
}

export function experimentSettingsOf(input: { approvals?: "reject" | "approve"; stubs?: { tool: string; result: string }[]; liveTools?: string[] }): ExperimentSettings {
  return { approvals: input.approvals ?? "reject", stubs: input.stubs ?? [], liveTools: input.liveTools ?? [] };
}

/** The stored settings (written by experimentSettingsOf; a damaged row falls back to the safest: reject, no stubs, nothing live). */
export function parseExperimentSettings(text: string): ExperimentSettings {
  try {
    const value = JSON.parse(text) as Partial<ExperimentSettings>;
    return {
      approvals: value.approvals === "approve" ? "approve" : "reject",
      stubs: Array.isArray(value.stubs) ? value.stubs.filter((s) => typeof s?.tool === "string" && typeof s.result === "string") : [],
      liveTools: Array.isArray(value.liveTools) ? value.liveTools.filter((t): t is string => typeof t === "string") : [],
    };
  } catch {
    return { approvals: "reject", stubs: [], liveTools: [] };
  }
}

/** An item run's tape: the item's recorded calls first, then the experiment's stubs for anything they do not hold. */
export function itemTape(itemTape: readonly TapeEntry[], settings: ExperimentSettings): { entries: TapeEntry[]; settings: TapeSettings } {
  return {
    entries: [...itemTape, ...settings.stubs.map((stub): TapeEntry => ({ kind: "tool_stub", tool: stub.tool, result: stub.result }))],
    settings: { live: { tools: settings.liveTools }, approvals: settings.approvals },
  };
}
