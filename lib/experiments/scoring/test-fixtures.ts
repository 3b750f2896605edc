// Builders for scorer tests: a finished run and a dataset item with only what a test sets.
import type { ObservedRun, ScoredItem } from "./types";

export function observed(overrides: Partial<ObservedRun> = {}): ObservedRun {
  return {
    runId: "run-1",
    status: "completed",
    output: null,
    outputData: null,
    errorReason: null,
    toolCalls: [],
    editedSteps: [],
    routing: [],
    plan: null,
    latencyMs: 1200,
    inputTokens: 300,
    outputTokens: 50,
    costUsd: 0.002,
    ...overrides,
  };
}

export function item(expected: ScoredItem["expected"] = {}, task = "What is the balance of account 42?"): ScoredItem {
  return { input: { task }, expected, tags: [] };
}

export function calls(...list: [string, Record<string, unknown>?][]): ObservedRun["toolCalls"] {
  return list.map(([tool, args]) => ({ tool, arguments: args ?? {}, outcome: "ok", replayed: true, edited: false }));
}
