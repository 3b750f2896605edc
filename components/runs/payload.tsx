"use client";
// Model text and tool output, always rendered as text (React escapes it; no
// HTML is ever interpreted): pretty-printed when it is JSON, collapsible when
// long, copyable.
import { useMemo, useState } from "react";

const COLLAPSE_AT = 800;

function pretty(text: string): string {
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

export function Payload({ text, label }: { text: string; label?: string }) {
  const shown = useMemo(() => pretty(text), [text]);
  const long = shown.length > COLLAPSE_AT;
  const [open, setOpen] = useState(!long);
  const [copied, setCopied] = useState(false);
  return (
    <div className="group relative rounded-md border border-zinc-200 bg-zinc-50">
      <div className="flex items-center justify-between gap-2 border-b border-zinc-200 px-2 py-1 text-xs text-zinc-500">
        <span>{label ?? "text"}</span>
        <span className="flex gap-2">
          {long ? (
            <button type="button" className="hover:text-zinc-900" onClick={() => setOpen((o) => !o)}>
              {open ? "Collapse" : `Expand (${shown.length.toLocaleString("en-US")} chars)`}
            </button>
          ) : null}
          <button
            type="button"
            className="hover:text-zinc-900"
            onClick={() => {
              void navigator.clipboard?.writeText(text).then(() => setCopied(true));
            }}
          >
            {copied ? "Copied" : "Copy"}
          </button>
        </span>
      </div>
      <pre data-testid="payload" className="max-h-[28rem] overflow-auto whitespace-pre-wrap break-words p-2 font-mono text-xs text-zinc-800">
        {open ? shown : `${shown.slice(0, COLLAPSE_AT)}…`}
      </pre>
    </div>
  );
}
