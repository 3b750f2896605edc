// The one ledger write online evaluation makes (lib/online-eval/record.ts): an evaluator's mean score on the run's
// own span, inside the transaction that records the scores, so the span and the scores never disagree.
import { z } from "zod";
import type { DbTransaction } from "../db/transactions";
import { ONLINE_SCORE_ATTRIBUTE_PREFIX } from "../contract/online-score";

/** A span's stored data: its attributes are the part changed here; the rest is kept as it is. */
const spanData = z.looseObject({ attributes: z.record(z.string(), z.unknown()).optional() });

/**
 * Sets `onlineScore:<evaluator>` on the run's own span (rounded to three decimals). A run with no span of its own
 * (a row written straight to the runs table) keeps its scores on the run alone.
 */
export async function markRunSpanScore(tx: DbTransaction, runId: string, evaluatorName: string, mean: number): Promise<void> {
  const span = await tx.runSpan.findFirst({ where: { runId, kind: "run", parentId: null }, select: { spanId: true, data: true } });
  if (!span) return;
  let stored: unknown = {};
  try {
    stored = JSON.parse(span.data || "{}");
  } catch {
    // Not JSON: written by no version of the ledger; replaced by the attribute alone rather than failing the score.
  }
  const parsed = spanData.safeParse(stored);
  const current = parsed.success ? parsed.data : {};
  const attributes = { ...(current.attributes ?? {}), [`${ONLINE_SCORE_ATTRIBUTE_PREFIX}${evaluatorName}`]: Math.round(mean * 1000) / 1000 };
  await tx.runSpan.update({ where: { runId_spanId: { runId, spanId: span.spanId } }, data: { data: JSON.stringify({ ...current, attributes }) } });
}
