"use client";
// A JSON value as a tree whose objects and arrays fold, with a switch to the
// raw JSON. Everything renders as text (React escapes it).
import { useState } from "react";
import { jsonNode, jsonPreview, rawJson } from "@/lib/runs/json-view";

const LEAF_COLORS = { string: "text-emerald-800", number: "text-sky-800", boolean: "text-violet-800", null: "text-zinc-500", other: "text-zinc-700" } as const;

/** Levels open at first; deeper containers start folded. */
const OPEN_LEVELS = 2;

function JsonBranch({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const node = jsonNode(value);
  const [open, setOpen] = useState(depth < OPEN_LEVELS);
  const key = name !== null ? <span className="text-zinc-600">{name}: </span> : null;
  if (node.kind === "leaf") {
    return (
      <li role="treeitem" aria-selected={false} className="break-words">
        {key}
        <span className={LEAF_COLORS[node.type]}>{node.text}</span>
      </li>
    );
  }
  const children: [string, unknown][] = node.kind === "object" ? node.entries : node.items.map((item, i) => [String(i), item]);
  return (
    <li role="treeitem" aria-selected={false} aria-expanded={open}>
      <button type="button" className="text-left hover:text-indigo-700" aria-label={`${open ? "Fold" : "Unfold"} ${name ?? "answer"}`} onClick={() => setOpen((o) => !o)}>
        <span className="inline-block w-3 text-zinc-400">{open ? "▾" : "▸"}</span>
        {key}
        <span className="text-zinc-400">{jsonPreview(node)}</span>
      </button>
      {open && children.length ? (
        <ul role="group" className="ml-3 border-l border-zinc-200 pl-2">
          {children.map(([childName, child]) => (
            <JsonBranch key={childName} name={childName} value={child} depth={depth + 1} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The typed answer: a foldable tree, or the raw JSON. */
export function JsonTree({ value, label }: { value: unknown; label: string }) {
  const [raw, setRaw] = useState(false);
  return (
    <div data-testid="typed-output" className="rounded-md border border-zinc-200 bg-zinc-50">
      <div className="flex items-center justify-between gap-2 border-b border-zinc-200 px-2 py-1 text-xs text-zinc-500">
        <span>{label}</span>
        <button type="button" className="hover:text-zinc-900" aria-pressed={raw} onClick={() => setRaw((r) => !r)}>
          {raw ? "Show as tree" : "Show raw JSON"}
        </button>
      </div>
      {raw ? (
        <pre data-testid="typed-output-raw" className="max-h-[28rem] overflow-auto whitespace-pre-wrap break-words p-2 font-mono text-xs text-zinc-800">
          {rawJson(value)}
        </pre>
      ) : (
        <ul role="tree" aria-label={label} data-testid="typed-output-tree" className="max-h-[28rem] overflow-auto p-2 font-mono text-xs">
          <JsonBranch name={null} value={value} depth={0} />
        </ul>
      )}
    </div>
  );
}
