// The draw of a traffic split: deterministic, so the same key always lands on the
// same side (a customer stays on one version), and independent per graph and
// label (a key on the split side of one label is not on it for every label).
import type { Split } from "./schemas";

export type Variant = "base" | "split";

/** FNV-1a over the UTF-8 bytes, then a murmur3 finaliser so nearby keys spread over the whole range. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Where a key falls in [0, 100). */
export function bucketOf(graph: string, label: string, key: string): number {
  return (hash32(`${graph}\u0000${label}\u0000${key}`) / 2 ** 32) * 100;
}

/** The side a key draws: "split" when its bucket is under the split's share. */
export function drawVariant(graph: string, label: string, split: Pick<Split, "percent">, key: string): Variant {
  if (split.percent <= 0) return "base";
  if (split.percent >= 100) return "split";
  return bucketOf(graph, label, key) < split.percent ? "split" : "base";
}

/** The text a context-sticky split draws from: the context value (strings as they are, anything else as JSON), or null when the run has none. */
export function contextKeyValue(context: Record<string, unknown>, key: string): string | null {
  const value = context[key];
  if (value === undefined || value === null) return null;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The key a run draws with: the context value for a context-sticky split (the run id when the context lacks it), else the run id. */
export function drawKey(split: Pick<Split, "sticky" | "contextKey">, context: Record<string, unknown>, runId: string): { key: string; from: "context" | "run" } {
  if (split.sticky === "context" && split.contextKey) {
    const value = contextKeyValue(context, split.contextKey);
    if (value !== null) return { key: `context:${value}`, from: "context" };
  }
  return { key: `run:${runId}`, from: "run" };
}

/** How a split is stored on its row (agent_labels.split_sticky) and read back. */
export function stickyText(split: Pick<Split, "sticky" | "contextKey">): string {
  return split.sticky === "context" && split.contextKey ? `context:${split.contextKey}` : "conversation";
}

export function splitFromRow(row: { splitVersion: number | null; splitPercent: number; splitSticky: string | null }): Split | null {
  if (row.splitVersion === null) return null;
  const sticky = row.splitSticky ?? "conversation";
  return sticky.startsWith("context:") ? { version: row.splitVersion, percent: row.splitPercent, sticky: "context", contextKey: sticky.slice("context:".length) } : { version: row.splitVersion, percent: row.splitPercent, sticky: "conversation" };
}
