"use client";
// What can be added: drag an item onto the canvas, or press it (keyboard) to
// add it beside the selection. Tools and MCP servers attach to the selected agent.
import type { DragEvent } from "react";
import { BUILTIN_TOOLS } from "@/lib/tools/catalog";
import { PALETTE_MIME } from "@/components/graph/designer-canvas";

export const PALETTE_ITEMS = [
  { id: "agent", label: "Agent", hint: "A new agent" },
  { id: "mcp", label: "MCP server", hint: "A registered MCP server (the demo knowledge base first), on the selected agent" },
  ...BUILTIN_TOOLS.map((t) => ({ id: `tool:${t.id}`, label: t.id, hint: t.description })),
] as const;

export function Palette({ onAdd, disabled }: { onAdd: (item: string) => void; disabled: boolean }) {
  const start = (item: string) => (event: DragEvent) => {
    event.dataTransfer.setData(PALETTE_MIME, item);
    event.dataTransfer.effectAllowed = "copy";
  };
  return (
    <nav aria-label="Palette" className="w-40 shrink-0 space-y-1 overflow-auto border-r border-zinc-200 bg-zinc-50 p-2 text-xs">
      <h2 className="px-1 font-semibold uppercase tracking-wide text-zinc-500">Add</h2>
      {PALETTE_ITEMS.map((item) => (
        <button
          key={item.id}
          type="button"
          draggable={!disabled}
          disabled={disabled}
          onDragStart={start(item.id)}
          onClick={() => onAdd(item.id)}
          title={item.hint}
          className="block w-full cursor-grab rounded border border-zinc-200 bg-white px-2 py-1 text-left font-medium text-zinc-800 hover:border-indigo-400 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {item.id.startsWith("tool:") ? <span className="font-mono">{item.label}</span> : `+ ${item.label}`}
        </button>
      ))}
    </nav>
  );
}
