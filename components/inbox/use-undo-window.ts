"use client";
import { useEffect, useState, useSyncExternalStore } from "react";
import { UndoQueue, type HeldDecision } from "./undo-queue";

// Decisions held when the inbox went away (a link, the back button): kept for
// the inbox's next mount in this tab, which says they were not sent.
let cancelledOnLeave: HeldDecision[] = [];

/** The decisions cancelled when the user last left the inbox, once: the caller tells the user. */
export function takeCancelledOnLeave(): HeldDecision[] {
  const taken = cancelledOnLeave;
  cancelledOnLeave = [];
  return taken;
}

/**
 * Holds keyboard decisions for the undo window, then `send`s them. Leaving
 * the inbox cancels what is held (nothing is sent: a result nobody sees is
 * worse than a call that still waits) and the next inbox says so; closing or
 * reloading the tab meanwhile asks first (the browser's leave-page prompt).
 */
export function useUndoWindow(send: (entry: HeldDecision) => void) {
  // The queue outlives renders; it sends with the latest handler.
  const [queue] = useState(() => new UndoQueue());
  useEffect(() => {
    queue.sendWith(send);
  });
  const held = useSyncExternalStore(queue.subscribe, queue.list, queue.list);

  useEffect(
    () => () => {
      const dropped = queue.cancelAll();
      if (dropped.length) cancelledOnLeave = [...cancelledOnLeave, ...dropped];
    },
    [queue],
  );

  const holding = held.length > 0;
  useEffect(() => {
    if (!holding) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [holding]);

  return { held, hold: queue.hold, undo: queue.undo };
}
