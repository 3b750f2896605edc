// Totals and deltas of compared runs (pure; the server and the page share them).
import type { TokenUsage } from "../../contract/types";
import type { RunStep } from "./steps";
import { UNPRICED } from "../../format/figures";

export interface StepTotals {
  tokens: TokenUsage;
  /** null when some step's cost is unknown (a partial sum is never shown as a total). */
  cost: number | null;
}

/** Tokens and cost of the steps' model calls. */
export function stepTotals(steps: readonly RunStep[]): StepTotals {
  let inputTokens = 0;
  let outputTokens = 0;
  let cost: number | null = 0;
  for (const step of steps) {
    if (step.kind !== "model_call") continue;
    inputTokens += step.tokens?.inputTokens ?? 0;
    outputTokens += step.tokens?.outputTokens ?? 0;
    cost = cost === null || step.cost === null ? null : cost + step.cost;
  }
  return { tokens: { inputTokens, outputTokens }, cost };
}

export const totalTokens = (usage: TokenUsage | null): number => (usage ? usage.inputTokens + usage.outputTokens : 0);

/** b − a, or null when either is unknown. */
export function deltaOf(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : b - a;
}

/** "+1,200" / "−35" / "0" (a true minus sign), for token and millisecond deltas. */
export function formatSigned(value: number, unit = ""): string {
  const abs = Math.abs(value).toLocaleString("en-US", { maximumFractionDigits: 0 });
  return `${value > 0 ? "+" : value < 0 ? "−" : ""}${abs}${unit}`;
}

/** "+$0.0123" / "−$0.50" / "$0" / "unpriced". */
export function formatSignedCost(value: number | null): string {
  if (value === null) return UNPRICED;
  if (value === 0) return "$0";
  const abs = Math.abs(value);
  return `${value > 0 ? "+" : "−"}$${abs < 0.01 ? abs.toFixed(4) : abs.toFixed(2)}`;
}
