"use client";
import { useState } from "react";

export const SHORTCUTS = [
  ["Delete / Backspace", "delete the selection"],
  ["Ctrl/Cmd-Z", "undo"],
  ["Shift-Ctrl/Cmd-Z", "redo"],
  ["Ctrl/Cmd-S", "save a version"],
  ["Ctrl/Cmd-A", "select every node"],
  ["Ctrl/Cmd-C, Ctrl/Cmd-V", "copy and paste agents"],
  ["Shift-drag", "select an area"],
] as const;

export function HelpPopover() {
  const [open, setOpen] = useState(false);
  return (
    <div className="relative">
      <button type="button" aria-expanded={open} aria-controls="designer-shortcuts" onClick={() => setOpen((o) => !o)} className="rounded px-2 py-1 text-xs font-medium text-zinc-700 ring-1 ring-zinc-300 hover:bg-zinc-50">
        Shortcuts
      </button>
      {open ? (
        <div id="designer-shortcuts" role="dialog" aria-label="Keyboard shortcuts" className="absolute right-0 z-20 mt-1 w-72 rounded-md border border-zinc-200 bg-white p-3 text-xs shadow-lg">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            {SHORTCUTS.map(([keys, what]) => (
              <div key={keys} className="contents">
                <dt className="font-mono text-zinc-800">{keys}</dt>
                <dd className="text-zinc-600">{what}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </div>
  );
}
