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
}

/** j/k move, a approve, r reject, e edit, x select — never while typing in a field. */
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
      const current = h.ids[Math.max(index, 0)];
      const act = (fn: (id: string) => void) => {
        if (!current) return;
        event.preventDefault();
        fn(current);
      };
      switch (event.key) {
        case "j": {
          const next = h.ids[Math.min(index + 1, h.ids.length - 1)];
          if (next) act(() => h.onFocus(next));
          break;
        }
        case "k": {
          const previous = h.ids[Math.max(index - 1, 0)];
          if (previous) act(() => h.onFocus(previous));
          break;
        }
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
