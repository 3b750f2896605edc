"use client";
// A small JSON editor: line numbers, two-space indent on Tab, live parsing with
// the error's line and column, and a Format button. The value is always text;
// the parent gets the parsed object (or null while it does not parse).
import { useId, useMemo, useRef } from "react";

export type JsonParse = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Parses a context object; the error names the line and column when JSON.parse gives a position. */
export function parseJsonObject(text: string): JsonParse {
  if (!text.trim()) return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, error: "The context must be a JSON object ({ … })" };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    const message = error instanceof Error ? error.message : "invalid JSON";
    const position = /position (\d+)/.exec(message);
    if (position) {
      const before = text.slice(0, Number(position[1]));
      const line = before.split("\n").length;
      const column = before.length - before.lastIndexOf("\n");
      return { ok: false, error: `Invalid JSON at line ${line}, column ${column}` };
    }
    return { ok: false, error: "Invalid JSON" };
  }
}

export function JsonEditor({ value, onChange, label, rows = 8 }: { value: string; onChange: (text: string) => void; label: string; rows?: number }) {
  const id = useId();
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  const parsed = useMemo(() => parseJsonObject(value), [value]);
  const lines = Math.max(rows, value.split("\n").length);
  return (
    <div>
      <div className="mb-1 flex items-center justify-between">
        <label htmlFor={id} className="text-sm font-medium text-zinc-800">
          {label}
        </label>
        <button
          type="button"
          className="text-xs text-indigo-600 hover:underline disabled:text-zinc-400"
          disabled={!parsed.ok}
          onClick={() => parsed.ok && onChange(JSON.stringify(parsed.value, null, 2))}
        >
          Format
        </button>
      </div>
      <div className={`flex overflow-hidden rounded-md border font-mono text-xs ${parsed.ok ? "border-zinc-300" : "border-red-400"}`}>
        <div ref={gutter} aria-hidden className="select-none overflow-hidden bg-zinc-100 px-2 py-2 text-right leading-5 text-zinc-400" style={{ height: `${rows * 1.25 + 1}rem` }}>
          {Array.from({ length: lines }, (_, i) => (
            <div key={i}>{i + 1}</div>
          ))}
        </div>
        <textarea
          ref={area}
          id={id}
          spellCheck={false}
          value={value}
          rows={rows}
          aria-invalid={!parsed.ok}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== "Tab" || e.shiftKey) return;
            e.preventDefault();
            const el = e.currentTarget;
            const { selectionStart, selectionEnd } = el;
            onChange(`${value.slice(0, selectionStart)}  ${value.slice(selectionEnd)}`);
            requestAnimationFrame(() => el.setSelectionRange(selectionStart + 2, selectionStart + 2));
          }}
          className="flex-1 resize-y whitespace-pre bg-white px-2 py-2 leading-5 outline-none"
        />
      </div>
      {!parsed.ok ? (
        <p role="alert" className="mt-1 text-xs text-red-600">
          {parsed.error}
        </p>
      ) : null}
    </div>
  );
}
