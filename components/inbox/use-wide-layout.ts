"use client";
import { useSyncExternalStore } from "react";

/** From this width the inbox is a compact list beside a detail pane; narrower screens keep the stacked cards. */
export const WIDE_INBOX_QUERY = "(min-width: 1280px)";

function subscribe(onChange: () => void) {
  const query = window.matchMedia(WIDE_INBOX_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** Whether the screen is wide enough for the list and detail pane (false on the server: the stacked cards first). */
export function useWideLayout(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(WIDE_INBOX_QUERY).matches,
    () => false,
  );
}
