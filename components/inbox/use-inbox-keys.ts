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
  /** u: take back the latest held decision (it needs no card). */
  onUndo?: () => void;
}

const DECISION_KEYS = { a: "approve", r: "reject", e: "edit", x: "toggle" } as const;
type DecisionKey = keyof typeof DECISION_KEYS;

export type InboxKeyAction = { kind: "move"; id: string } | { kind: "decide"; action: (typeof DECISION_KEYS)[DecisionKey]; id: string } | { kind: "no-focus" } | { kind: "undo" } | null;

/** Ctrl+Enter or Cmd+Enter: submits the open reason or edit form (plain Enter stays a newline). */
export function isSubmitChord(event: { key: string; ctrlKey: boolean; metaKey: boolean }): boolean {
  return event.key === "Enter" && (event.ctrlKey || event.metaKey);
}

/**
 * What a key does, given the cards in order and the one the user moved to.
 * Decision keys act only on that card: there is no focus until the first j/k,
 * and none after the focused card leaves the inbox (no other card inherits it).
 */
export function inboxKeyAction(key: string, ids: readonly string[], focusedId: string | null): InboxKeyAction {
  if (key === "u") return { kind: "undo" };
  const index = focusedId ? ids.indexOf(focusedId) : -1;
  if (key === "j" || key === "k") {
    const id = key === "j" ? ids[Math.min(index + 1, ids.length - 1)] : ids[Math.max(index - 1, 0)];
    return id ? { kind: "move", id } : null;
  }
  if (!Object.hasOwn(DECISION_KEYS, key)) return null;
  const id = index >= 0 ? ids[index] : undefined;
  return id ? { kind: "decide", action: DECISION_KEYS[key as DecisionKey], id } : { kind: "no-focus" };
}

// Inputs that take no text (a row's checkbox) keep the keys working after a click on them.
const NON_TEXT_INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset"]);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA" || target.tagName === "SELECT") return true;
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}

/** j/k move, a approve, r reject, e edit, x select, u undo — never while typing in a field. */
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
      if (isTyping(event.target)) return;
      const action = inboxKeyAction(event.key, h.ids, h.focusedId);
      if (!action) return;
      if (action.kind === "no-focus") {
        h.onNoFocus?.();
        return;
      }
      event.preventDefault();
      if (action.kind === "undo") h.onUndo?.();
      else if (action.kind === "move") h.onFocus(action.id);
      else ({ approve: h.onApprove, reject: h.onReject, edit: h.onEdit, toggle: h.onToggle })[action.action](action.id);
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
