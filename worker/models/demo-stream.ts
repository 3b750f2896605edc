// The demo model's token streaming: its answer is handed out a few words at a
// time, at a pace a person can read (a `stream <ms>` line in the task sets it),
// so the run page shows text growing as it would with a real provider. The
// whole text waits at most `maxTotalMs`, so long answers never slow a run much.

/** Words per piece, and the default pause between pieces and its bound for one answer. */
export const DEMO_STREAM_WORDS = 3;
export const DEMO_STREAM_PACE_MS = 20;
export const DEMO_STREAM_MAX_MS = 600;
/** The bound when the task asks for a pace itself (`stream <ms>`): demos and tests that want to watch it. */
export const DEMO_STREAM_SCRIPTED_MAX_MS = 10_000;

/** The text in pieces of a few words, each with the spaces that follow it; their concatenation is the text. */
export function streamPieces(text: string, words = DEMO_STREAM_WORDS): string[] {
  const tokens = text.match(/\s*\S+\s*/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < tokens.length; i += words) pieces.push(tokens.slice(i, i + words).join(""));
  // Leading whitespace of the text belongs to its first piece (match keeps it), so nothing is lost.
  if (pieces.join("") !== text) return [text];
  return pieces;
}

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error("aborted"));
    const onAbort = () => (clearTimeout(timer), reject(new Error("aborted")));
    const timer = setTimeout(() => (signal?.removeEventListener("abort", onAbort), resolve()), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** Hands `text` to `onText` piece by piece, pausing between pieces (the first comes at once). */
export async function streamDemoText(text: string, onText: (delta: string) => void, options: { paceMs: number; maxTotalMs: number; signal?: AbortSignal }): Promise<void> {
  const pieces = streamPieces(text);
  const gaps = Math.max(1, pieces.length - 1);
  const paceMs = Math.min(options.paceMs, Math.floor(options.maxTotalMs / gaps));
  for (const [i, piece] of pieces.entries()) {
    if (i > 0 && paceMs > 0) await pause(paceMs, options.signal);
    onText(piece);
  }
}
