"use client";
// What a held keyboard decision looks like while it can still be taken back:
// a toast over the page (one line per held decision, each with its own Undo)
// and a banner on the call's own card.
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { heldVerb, heldWhat } from "./decision-words";
import { UNDO_WINDOW_MS, type HeldDecision } from "./undo-queue";

/** Whole seconds until `at`, ticking; never below 0. */
export function SecondsLeft({ at }: { at: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return <span data-testid="held-seconds">{Math.max(0, Math.ceil((at - now) / 1000))}</span>;
}

/** Every held decision with its countdown and Undo; `u` undoes the latest. */
export function UndoToast({ held, onUndo }: { held: HeldDecision[]; onUndo: (key: number) => void }) {
  const latest = held.at(-1);
  if (!latest) return null;
  return (
    <section aria-label="Held decisions" data-testid="undo-toast" className="fixed right-4 bottom-4 z-40 w-[30rem] max-w-[calc(100vw-2rem)] space-y-2 rounded-lg border border-zinc-300 bg-white p-3 text-sm shadow-lg">
      {held.map((entry) => (
        <div key={entry.key} className="flex items-center gap-3" data-testid="held-decision">
          <p className="flex-1 text-zinc-800">
            <span className="font-medium">
              {heldVerb(entry)} {heldWhat(entry)}
            </span>{" "}
            in <SecondsLeft at={entry.sendAt} /> s — nothing is sent until then.
          </p>
          <Button variant="secondary" aria-keyshortcuts={entry === latest ? "u" : undefined} aria-label={`Undo ${heldVerb(entry).toLowerCase()} ${heldWhat(entry)}`} onClick={() => onUndo(entry.key)}>
            Undo{entry === latest ? " (u)" : ""}
          </Button>
        </div>
      ))}
      <p className="text-xs text-zinc-500">Leaving the inbox before then cancels it: nothing is sent, and the inbox says so when you come back.</p>
      {/* Announced once per new decision: the ticking seconds above are not in the live region. */}
      <p aria-live="polite" className="sr-only">{`${heldVerb(latest)} ${heldWhat(latest)} in ${UNDO_WINDOW_MS / 1000} seconds. Press u to undo.`}</p>
    </section>
  );
}

/** On the held call's own card: what will happen, when, and Undo. */
export function HeldBanner({ entry, onUndo }: { entry: HeldDecision; onUndo: () => void }) {
  return (
    <div className="flex items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="approval-held">
      <p className="flex-1">
        {heldVerb(entry)} in <SecondsLeft at={entry.sendAt} /> s — not sent yet.
      </p>
      <Button variant="secondary" onClick={onUndo}>
        Undo
      </Button>
    </div>
  );
}
