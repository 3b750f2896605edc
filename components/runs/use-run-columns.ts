"use client";
// The runs list's column choices, kept in this browser's localStorage and read
// through useSyncExternalStore: the server's HTML (and the first paint) shows
// the default columns, the browser's choices follow at hydration, and another
// tab's change arrives through the storage event.
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { COLUMNS_STORAGE_KEY, parseColumnChoices, type ColumnChoices, type RunColumn } from "./run-columns";

/** Same-tab writes: the storage event fires only in other tabs. */
const CHANGED = "zap:run-columns";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

function read(): string | null {
  try {
    return window.localStorage.getItem(COLUMNS_STORAGE_KEY);
  } catch {
    // Storage refused (a privacy mode): the defaults stand.
    return null;
  }
}

function write(choices: ColumnChoices): void {
  try {
    if (Object.keys(choices).length) window.localStorage.setItem(COLUMNS_STORAGE_KEY, JSON.stringify(choices));
    else window.localStorage.removeItem(COLUMNS_STORAGE_KEY);
  } catch {
    // Storage refused: nothing is kept and the defaults stand.
  }
  window.dispatchEvent(new Event(CHANGED));
}

/** The stored choices, a setter for one column, and a reset to the defaults. */
export function useRunColumns(): { choices: ColumnChoices; choose: (column: RunColumn, shown: boolean) => void; reset: () => void } {
  const stored = useSyncExternalStore(subscribe, read, () => null);
  const choices = useMemo(() => parseColumnChoices(stored), [stored]);
  const choose = useCallback((column: RunColumn, shown: boolean) => write({ ...parseColumnChoices(read()), [column]: shown }), []);
  const reset = useCallback(() => write({}), []);
  return { choices, choose, reset };
}
