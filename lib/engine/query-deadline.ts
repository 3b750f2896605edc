// How the engine client asks a workflow a question without ever hanging on it.
// A query waits for the workflow task in progress (a long local activity holds
// one for seconds), fails while the run's workflow task is in failed state,
// waits for a poller when no worker is up, and makes a worker replay a closed
// run's history. Each of those is an answer the run ledger can give instead, so
// every query the client still makes runs under one deadline, and its caller
// answers from the ledger on any failure.
import type { Client } from "@temporalio/client";

/** The longest any query may take before the run ledger answers instead. */
export const QUERY_DEADLINE_MS = 1_500;

/** A query that did not answer within its deadline. */
export class QueryTimedOut extends Error {
  constructor(readonly runId: string, readonly timeoutMs: number) {
    super(`run ${runId} did not answer a query within ${timeoutMs} ms`);
    this.name = "QueryTimedOut";
  }
}

/**
 * Runs `call` (one query) under a deadline twice over: as the gRPC deadline, so
 * the server gives up on it too, and as a timer, so a connection that never
 * answers (Temporal itself down) cannot hold the caller past it either.
 */
export async function withQueryDeadline<T>(temporal: Client, runId: string, timeoutMs: number, call: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueryTimedOut(runId, timeoutMs)), timeoutMs);
  });
  const asked = temporal.withDeadline(Date.now() + timeoutMs, call);
  // The call may still settle after the timer won: its rejection is the timer's, already reported.
  asked.catch(() => undefined);
  try {
    return await Promise.race([asked, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Why a query failed, in a few words for the log. */
export function queryFailure(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** At most one log line per run and question in this window: the inbox asks every second. */
const LOG_WINDOW_MS = 60_000;
const LOGGED_MAX = 1_000;
const lastLogged = new Map<string, number>();

/** Logs that the ledger answered for a run whose workflow did not, once a minute per run and question. */
export function logLedgerFallback(runId: string, question: string, error: unknown, now = Date.now()): void {
  const key = `${question}\u0000${runId}`;
  const last = lastLogged.get(key);
  if (last !== undefined && now - last < LOG_WINDOW_MS) return;
  if (lastLogged.size >= LOGGED_MAX) lastLogged.clear();
  lastLogged.set(key, now);
  console.warn(`engine: run ${runId} did not answer the ${question} query (${queryFailure(error)}); answered from the run ledger`);
}
