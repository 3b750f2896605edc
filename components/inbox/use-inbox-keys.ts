"use client";
import { useEffect, useRef } from "react";

export interface InboxKeyHandlers {
  enabled: boolean;
  ids: string[];
  focusedId: string | null;
  onFocus: (id: string) => void;
  onApprove: (id: string) => void;
  onReject: (id: string) => void;
  onEdit: (id: string) => void;
  onToggle: (id: string) => void;
  /** A decision key pressed before the user moved to any card: nothing is decided. */
  onNoFocus?: () => void;
}

/**
 * j/k move, a approve, r reject, e edit, x select — never while typing in a
 * field. Decision keys act only on the card the user moved to: there is no
 * focus until the first j/k, and none after the focused card leaves the inbox.
 */
export function useInboxKeys(handlers: InboxKeyHandlers) {
  // The listener is installed once; it reads the latest handlers through the ref.
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const h = latest.current;
      if (!h.enabled || event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
      const index = h.focusedId ? h.ids.indexOf(h.focusedId) : -1;
      const current = index >= 0 ? h.ids[index] : undefined;
      const act = (fn: (id: string) => void) => {
        if (!current) {
          h.onNoFocus?.();
          return;
        }
        event.preventDefault();
        fn(current);
      };
      const move = (id: string | undefined) => {
        if (!id) return;
        event.preventDefault();
        h.onFocus(id);
      };
      switch (event.key) {
        case "j":
          move(h.ids[Math.min(index + 1, h.ids.length - 1)]);
          break;
        case "k":
          move(h.ids[Math.max(index - 1, 0)]);
          break;
        case "a":
          act(h.onApprove);
          break;
        case "r":
          act(h.onReject);
          break;
        case "e":
          act(h.onEdit);
          break;
        case "x":
          act(h.onToggle);
          break;
      }
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
