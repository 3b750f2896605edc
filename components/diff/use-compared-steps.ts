"use client";
// The steps of a comparison as the page has them: those the answer carried
// (around the first divergence, lib/runs/diff/wire.ts) plus those read since
// with `GET /api/runs/compare/steps`, a chunk of STEP_CHUNK at a time, when
// their rows come into view. A 409 (a running run took steps since the page
// loaded, so the indices no longer hold) or another refusal is kept as the
// error to show; the rows it concerns stay placeholders.
import { useCallback, useRef, useState } from "react";
import { getJson } from "@/lib/http/client";
import type { CompareStepsPage, RunComparison, StepView } from "@/lib/runs/diff/schemas";
import type { Side } from "./step-cell";

/** Steps read per request: a screenful of rows is ~5–15 steps a side, so one request covers a lot of scrolling. */
export const STEP_CHUNK = 100;

/** Reads steps [from, to) of `runId` (the steps route, or a stand-in in tests). */
export type LoadSteps = (runId: string, from: number, to: number, version: string) => Promise<CompareStepsPage>;

export const loadStepsFromApi: LoadSteps = (runId, from, to, version) =>
  getJson<CompareStepsPage>(`/api/runs/compare/steps?${new URLSearchParams({ run: runId, from: String(from), to: String(to), version }).toString()}`, { what: "the run's steps" });

type Loaded = Readonly<Record<Side, ReadonlyMap<number, StepView>>>;

/** A stretch of one run's steps to read: [from, to) of the chunk `key` (side:chunk). */
export interface ChunkRequest {
  side: Side;
  key: string;
  from: number;
  to: number;
}

/** The chunks to read for the wanted steps: those neither carried by the comparison, nor loaded, nor already asked for (`asked` keys). */
export function missingChunks(comparison: RunComparison, loaded: Loaded, asked: ReadonlySet<string>, wanted: readonly { side: Side; index: number }[]): ChunkRequest[] {
  const out = new Map<string, ChunkRequest>();
  for (const { side, index } of wanted) {
    const run = comparison[side];
    if (index < 0 || index >= run.steps.length || run.steps[index] || loaded[side].has(index)) continue;
    const chunk = Math.floor(index / STEP_CHUNK);
    const key = `${side}:${chunk}`;
    if (asked.has(key) || out.has(key)) continue;
    out.set(key, { side, key, from: chunk * STEP_CHUNK, to: Math.min(run.steps.length, (chunk + 1) * STEP_CHUNK) });
  }
  return [...out.values()];
}

export interface ComparedSteps {
  /** The step, or null while it is not loaded. */
  stepOf: (side: Side, index: number) => StepView | null;
  /** Starts reading the chunks holding these steps (those loaded or being read are skipped). */
  request: (wanted: readonly { side: Side; index: number }[]) => void;
  /** Why some steps could not be read; null while all went well. */
  error: string | null;
}

export function useComparedSteps(comparison: RunComparison, load: LoadSteps = loadStepsFromApi): ComparedSteps {
  const [loaded, setLoaded] = useState<Loaded>({ a: new Map(), b: new Map() });
  // Chunks asked for (side:chunk), so a re-render while one is on its way does not ask again.
  const asked = useRef(new Set<string>());
  const [error, setError] = useState<string | null>(null);

  const stepOf = useCallback((side: Side, index: number) => comparison[side].steps[index] ?? loaded[side].get(index) ?? null, [comparison, loaded]);

  const request = useCallback(
    (wanted: readonly { side: Side; index: number }[]) => {
      for (const { side, key, from, to } of missingChunks(comparison, loaded, asked.current, wanted)) {
        asked.current.add(key);
        const run = comparison[side];
        load(run.runId, from, to, run.version).then(
          (page) =>
            setLoaded((prev) => {
              const next = new Map(prev[side]);
              page.steps.forEach((step, i) => next.set(page.from + i, step));
              return { ...prev, [side]: next };
            }),
          (failure: unknown) => setError(failure instanceof Error ? failure.message : "Could not load the run's steps"),
        );
      }
    },
    [comparison, load, loaded],
  );

  return { stepOf, request, error };
}
