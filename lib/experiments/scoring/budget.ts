// Threshold scorers on what the run used: latency, tokens (input + output) and cost.
// value = 1 within the limit, else limit / used, so a run twice over scores 0.5.
import type { ObservedRun, Score } from "./types";

function withinLimit(scorer: string, used: number, limit: number, unit: (n: number) => string): Score {
  const pass = used <= limit;
  const value = pass ? 1 : limit / used;
  return { scorer, value, pass, detail: pass ? `${unit(used)} within ${unit(limit)}` : `${unit(used)} over the limit of ${unit(limit)}` };
}

export function scoreLatency(run: ObservedRun, maxMs: number): Score {
  return withinLimit("latency", run.latencyMs, maxMs, (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`));
}

export function scoreTokens(run: ObservedRun, max: number): Score {
  return withinLimit("tokens", run.inputTokens + run.outputTokens, max, (n) => `${n.toLocaleString("en-US")} tokens`);
}

export function scoreCost(run: ObservedRun, maxUsd: number): Score {
  return withinLimit("cost", run.costUsd, maxUsd, (usd) => `$${usd.toFixed(usd < 0.01 ? 6 : 4)}`);
}
