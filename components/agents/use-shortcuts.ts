"use client";
// The designer's keyboard shortcuts. Text fields (inputs, CodeMirror) keep
// their own undo, select-all and clipboard; Ctrl/Cmd-S saves from anywhere.
import { useEffect, useRef } from "react";

interface Shortcuts {
  save: () => void;
  undo: () => void;
  redo: () => void;
  selectAll: () => void;
  copy: () => void;
  paste: () => void;
  enabled: boolean;
  canEdit: boolean;
}

function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.closest("input, textarea, select, .cm-editor") !== null;
}

export function useShortcuts(shortcuts: Shortcuts): void {
  const latest = useRef(shortcuts);
  useEffect(() => {
    latest.current = shortcuts;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { save, undo, redo, selectAll, copy, paste, enabled, canEdit } = latest.current;
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      if (key === "s") {
        event.preventDefault();
        if (canEdit && enabled) save();
        return;
      }
      if (!enabled || inTextField(event.target)) return;
      if (key === "z" && canEdit) {
        event.preventDefault();
        if (event.shiftKey) redo();
        else undo();
      } else if (key === "y" && canEdit) {
        event.preventDefault();
        redo();
      } else if (key === "a") {
        event.preventDefault();
        selectAll();
      } else if (key === "c") {
        copy();
      } else if (key === "v" && canEdit) {
        event.preventDefault();
        paste();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
