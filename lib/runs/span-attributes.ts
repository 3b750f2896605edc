// A span's attributes as people read them (issue 37 §2): where a taped run's
// step came from — reused from the recording ("replayed") or written by
// someone ("edited by …"), never both, the edit winning — and the other
// attributes under words instead of the engine's keys (`recordedInputTokens`,
// `recordedModel`, `callId` …). The trace rows, the span details and the
// conversation read them from here. Browser-safe and pure.
import type { EditMark } from "../contract/types";
import { spanEditMark } from "./edit-marks";
import { ONLINE_SCORE_ATTRIBUTE_PREFIX } from "../contract/online-score";

export type Provenance = { kind: "replayed" } | { kind: "edited"; mark: EditMark };

/** Where the step came from in a taped run (fork, experiment), or null for a step that ran live. An edited step is never "replayed". */
export function spanProvenance(attributes: Record<string, unknown> | undefined): Provenance | null {
  const mark = spanEditMark(attributes);
  if (mark) return { kind: "edited", mark };
  return attributes?.replayed === true ? { kind: "replayed" } : null;
}

/** The hover text of the "replayed" mark. */
export const REPLAYED_TITLE = "Reused from the recording: not executed again, no side effect, cost nothing";

/** Keys shown elsewhere (the provenance mark, the retry note, the validation line) or folded into another row. */
const SHOWN_ELSEWHERE = new Set(["replayed", "edited", "editedBy", "editedAt", "retryReason", "validation_ok", "recordedOutputTokens"]);

/** The engine's keys in words; any other key is split into words (`childRunId` → "child run id"). */
const WORDS: Record<string, string> = {
  recordedInputTokens: "recorded tokens",
  recordedModel: "recorded model",
  recordedUsage: "recorded tokens",
  toolCallsFromText: "tool calls read from the answer's text",
  callId: "call id",
  childRunId: "sub-run",
  conversationId: "conversation",
  approvalId: "approval",
  nodeId: "plan node",
  fallbackTaken: "fallback taken",
};

/** Values with a sentence of their own, by key. */
const VALUE_WORDS: Record<string, Record<string, string>> = {
  approval: { recorded: "as recorded (not asked again)", policy: "decided by the experiment's policy" },
};

/** "childRunId" → "child run id", "validation_ok" → "validation ok". */
export function keyInWords(key: string): string {
  return (
    WORDS[key] ??
    key
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/[_-]+/g, " ")
      .toLowerCase()
  );
}

function valueInWords(key: string, value: unknown): string {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (typeof value === "string") return VALUE_WORDS[key]?.[value] ?? value;
  if (typeof value === "number") return value.toLocaleString("en-US");
  return JSON.stringify(value) ?? String(value);
}

/** The attributes to list, in words: what the recording cost as one row, the rest one row each. */
export function attributeRows(attributes: Record<string, unknown> | undefined, keep: (key: string) => boolean = () => true): { key: string; label: string; value: string }[] {
  if (!attributes) return [];
  const rows: { key: string; label: string; value: string }[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (SHOWN_ELSEWHERE.has(key) || !keep(key)) continue;
    if (key.startsWith(ONLINE_SCORE_ATTRIBUTE_PREFIX) && typeof value === "number") {
      rows.push({ key, label: `online score: ${key.slice(ONLINE_SCORE_ATTRIBUTE_PREFIX.length)}`, value: value.toFixed(2) });
      continue;
    }
    if (key === "recordedInputTokens") {
      const output = attributes.recordedOutputTokens;
      rows.push({ key, label: keyInWords(key), value: `${valueInWords(key, value)} in · ${valueInWords(key, output ?? 0)} out (what the recording cost; the replay cost nothing)` });
      continue;
    }
    rows.push({ key, label: keyInWords(key), value: valueInWords(key, value) });
  }
  return rows;
}
