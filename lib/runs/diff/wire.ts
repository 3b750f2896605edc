// What of a comparison goes on the wire. Two 5,000-span runs have ~3,300
// steps each; sending every step with its texts made a 2.7 MB answer that
// the page had to serialise, ship and parse before showing anything. The
// answer now carries the rows (status and step indices) for all steps, but the
// steps themselves only for the rows around the first divergence — where the
// page opens — up to a text budget; the page fetches the others by index
// (`GET /api/runs/compare/steps`) as they scroll into view. Pure and
// browser-safe: the server and the page share it.
import { FIELD_TEXT_CAP, type StepView } from "./schemas";
import type { DiffRow } from "./align";
import type { RunStep } from "./steps";

/** Rows sent with their steps before the first divergence (the page opens with it at the top) … */
export const INLINE_ROWS_BEFORE = 20;
/** … and from it on. */
export const INLINE_ROWS_AFTER = 100;
/** Characters of field text the inline steps may carry in all (a row of 4,000-character results takes ~8,000). */
export const INLINE_TEXT_BUDGET = 160_000;

/** A step as sent: without group, seq and at, long field texts cut (the comparison used them whole). */
export function stepView(step: RunStep): StepView {
  let fields = step.fields;
  for (const [name, text] of Object.entries(step.fields)) {
    if (text.length <= FIELD_TEXT_CAP) continue;
    if (fields === step.fields) fields = { ...step.fields };
    fields[name] = `${text.slice(0, FIELD_TEXT_CAP)}… (${(text.length - FIELD_TEXT_CAP).toLocaleString("en-US")} more characters)`;
  }
  return { kind: step.kind, path: step.path, agent: step.agent, name: step.name, fields, runId: step.runId, spanId: step.spanId, tokens: step.tokens, cost: step.cost, latencyMs: step.latencyMs, replayed: step.replayed, ...(step.edited ? { edited: step.edited } : {}) };
}

function textSize(step: RunStep | undefined): number {
  if (!step) return 0;
  let size = 0;
  for (const text of Object.values(step.fields)) size += Math.min(text.length, FIELD_TEXT_CAP);
  return size;
}

/**
 * The rows whose steps are sent inline, as a sorted list of row indices: from
 * `anchor` (the first divergence, or 0) outward — four rows after it for each
 * row before — until INLINE_ROWS_BEFORE / INLINE_ROWS_AFTER or the text budget
 * is reached. The anchor row is always sent, whatever its size.
 */
export function inlineRows(rows: readonly DiffRow[], anchor: number, a: readonly RunStep[], b: readonly RunStep[], budget = INLINE_TEXT_BUDGET): number[] {
  const picked: number[] = [];
  let spent = 0;
  const take = (row: number): boolean => {
    const r = rows[row]!;
    const size = textSize(r.a === null ? undefined : a[r.a]) + textSize(r.b === null ? undefined : b[r.b]);
    if (picked.length > 0 && spent + size > budget) return false;
    spent += size;
    picked.push(row);
    return true;
  };
  if (rows.length === 0) return picked;
  const start = Math.min(Math.max(anchor, 0), rows.length - 1);
  const lastAfter = Math.min(rows.length - 1, start + INLINE_ROWS_AFTER - 1);
  const firstBefore = Math.max(0, start - INLINE_ROWS_BEFORE);
  let after = start;
  let before = start - 1;
  for (let k = 0; after <= lastAfter || before >= firstBefore; k++) {
    if (after <= lastAfter && !take(after++)) break;
    if (k % 4 === 3 && before >= firstBefore && !take(before--)) break;
    // Past the last row after the anchor, the rest of the budget goes to the rows before it.
    if (after > lastAfter && before >= firstBefore && !take(before--)) break;
  }
  return picked.sort((x, y) => x - y);
}

/** A run's steps for the wire: those of the given rows' side as StepViews, the others null. */
export function sparseSteps(steps: readonly RunStep[], rows: readonly DiffRow[], inline: readonly number[], side: "a" | "b"): (StepView | null)[] {
  const out: (StepView | null)[] = new Array<StepView | null>(steps.length).fill(null);
  for (const row of inline) {
    const index = rows[row]![side];
    if (index !== null) out[index] = stepView(steps[index]!);
  }
  return out;
}
