// The steps of a run tree as the diff view compares them: one entry per thing
// that happened (a message, a model call, a tool call, a routing decision …),
// with the fields that are compared and the figures that are only measured.
// Browser-safe and pure: the server builds steps (build-steps.ts), the diff
// aligns them (align.ts), the page and the bench read them.
import type { EditMark, TokenUsage } from "../../contract/types";

export const STEP_KINDS = [
  "task",
  "user_message",
  "model_call",
  "tool_call",
  "routing",
  "handoff",
  "sub_agent_message",
  "sub_agent_reply",
  "plan_proposed",
  "plan_node",
  "final",
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export interface RunStep {
  kind: StepKind;
  /**
   * Where in the run tree the step happened, independent of the uuids in child
   * run ids: "" for the root run, ".billing#1" for the first conversation with
   * billing, ".route-1-billing#1", ".node-n1-1#1" … (runPaths in build-steps.ts).
   */
  path: string;
  /** The agent that took the step. */
  agent: string;
  /** What names the step beyond its kind and place: the tool, the sub-agent, the plan node, the routed agent. */
  name: string;
  /** What is compared between two runs and shown, as text, in display order. */
  fields: Record<string, string>;
  /**
   * Steps that follow each other with the same group ran in parallel (tool
   * calls of one model answer): their order in the ledger is an accident of
   * timing, so they are put in a canonical order before aligning.
   */
  group: string | null;
  runId: string;
  /** The trace span of the step, when it has one (tool and model calls). */
  spanId: string | null;
  /** The event's sequence number in its run (the order within that run). */
  seq: number;
  at: string;
  tokens: TokenUsage | null;
  /** Dollars; null when the model has no price or the step has no model call. */
  cost: number | null;
  latencyMs: number | null;
  /** Reused from a tape (a fork's steps before its fork point): not executed again, costs nothing. */
  replayed: boolean;
  /** Taken from a tape but written by someone (a fork's edited tool result or model output): who and when. Never with `replayed`. */
  edited?: EditMark;
  /**
   * The fields as compared where they differ from `fields`: run ids of the tree, other generated ids and timestamps
   * taken out (normalise.ts), so two runs that differ only in those compare equal. Never sent: the page shows `fields`.
   */
  norm?: Record<string, string>;
}

/** A field's text as compared (normalised when the step carries a normalised form of it). */
export function comparedText(step: Pick<RunStep, "fields" | "norm">, name: string): string | undefined {
  return step.norm?.[name] ?? step.fields[name];
}

/** The identity two steps must share to be aligned with each other (then their fields are compared). */
export function stepKey(step: Pick<RunStep, "kind" | "path" | "name">): string {
  return `${step.kind}|${step.path}|${step.name}`;
}

/** The fields as compared, as one string, for ordering parallel steps and comparing whole contents. */
export function stepContent(step: Pick<RunStep, "fields" | "norm">): string {
  return JSON.stringify(step.norm ? Object.keys(step.fields).map((name) => [name, comparedText(step, name)]) : Object.entries(step.fields));
}

/**
 * JSON text with object keys sorted, so arguments that differ only in key order
 * compare equal; text that is not JSON is returned as it is.
 */
export function canonicalJson(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return text;
  }
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((k) => [k, sortKeys(record[k])]),
    );
  }
  return value;
}

/**
 * The steps with each stretch of parallel steps (consecutive, same group) in a
 * canonical order (by key, then content), so two runs whose parallel tool
 * calls finished in another order align call by call.
 */
export function orderParallel(steps: readonly RunStep[]): RunStep[] {
  const out: RunStep[] = [];
  let i = 0;
  while (i < steps.length) {
    const group = steps[i]!.group;
    let j = i + 1;
    if (group !== null) while (j < steps.length && steps[j]!.group === group) j++;
    const stretch = steps.slice(i, j);
    if (stretch.length > 1) {
      const keyed = stretch.map((s) => ({ s, k: stepKey(s), c: stepContent(s) }));
      keyed.sort((x, y) => (x.k < y.k ? -1 : x.k > y.k ? 1 : x.c < y.c ? -1 : x.c > y.c ? 1 : 0));
      for (const { s } of keyed) out.push(s);
    } else out.push(stretch[0]!);
    i = j;
  }
  return out;
}
