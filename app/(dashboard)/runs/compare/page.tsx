import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { getDb } from "@/lib/db/server/db";
import { loadPriceBook } from "@/lib/pricing/server/price-book";
import { AppError } from "@/lib/errors";
import { cachedCompareRuns } from "@/lib/runs/server/cached-compare";
import { compareQuerySchema } from "@/lib/runs/diff/schemas";
import type { RunComparison } from "@/lib/runs/diff/schemas";
import { packComparison } from "@/lib/runs/diff/packed";
import { limitExpensiveRead } from "@/lib/http/server/read-limits";
import { CompareClient } from "./compare-client";

export const metadata: Metadata = { title: "Compare runs" };

/**
 * /runs/compare?a=<runId>&b=<runId>: two runs of one graph step by step. The
 * comparison is computed here (finished runs' from the compare cache, after the
 * session check), so the first HTML carries it, with the rows from the first
 * divergence on already rendered; a refusal (unknown run, different graphs, too
 * large, too many comparisons a minute) is shown with the form to pick other runs.
 */
export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser("read");
  const params = await searchParams;
  const a = typeof params.a === "string" ? params.a : "";
  const b = typeof params.b === "string" ? params.b : "";
  if (!a && !b) return <CompareClient a="" b="" comparison={null} error={null} />;
  const parsed = compareQuerySchema.safeParse({ a, b });
  if (!parsed.success) return <CompareClient a={a} b={b} comparison={null} error="Give two run ids (A and B) to compare." />;
  let comparison: RunComparison | null = null;
  let error: string | null = null;
  try {
    // The page is a door to the same read as GET /api/runs/compare: counted against the same limit.
    await limitExpensiveRead(user, "runs.compare");
    comparison = await cachedCompareRuns(getDb(), parsed.data.a, parsed.data.b, await loadPriceBook());
  } catch (e) {
    // Refusals (unknown run, different graphs) are the user's to fix; anything else is a real failure.
    if (!(e instanceof AppError)) throw e;
    error = e.userMessage;
  }
  // Packed: the comparison travels in the HTML as this component's prop (lib/runs/diff/packed.ts).
  return <CompareClient a={a} b={b} comparison={comparison && packComparison(comparison)} error={error} />;
}
