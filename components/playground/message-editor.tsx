"use client";
// One message of the playground's conversation, editable: its text (a tool
// result's content, an assistant's reply), with what is not text (tool calls,
// images) shown beside it as it was.
import type { ChatMessage } from "@/lib/contract/types";

export function MessageEditor({ index, message, onChange, onRemove }: { index: number; message: ChatMessage; onChange: (text: string) => void; onRemove: () => void }) {
  const label = message.role === "system" ? "System prompt" : `Message ${index + 1} (${message.role}${message.role === "tool" ? ` · ${message.name}` : ""})`;
  return (
    <div data-testid="playground-message" data-role={message.role} className="space-y-1 rounded-md border border-zinc-200 bg-white p-2">
      <div className="flex items-center justify-between text-[11px] font-semibold uppercase tracking-wide text-zinc-500">
        <span>{label}</span>
        <button type="button" className="font-normal normal-case text-zinc-500 hover:text-red-700" aria-label={`Remove ${label}`} onClick={onRemove}>
          remove
        </button>
      </div>
      <textarea
        aria-label={label}
        className="block w-full rounded-md px-2 py-1 font-mono text-xs ring-1 ring-inset ring-zinc-300 focus:ring-2 focus:ring-indigo-600"
        rows={Math.min(12, Math.max(2, (message.content ?? "").split("\n").length + 1))}
        value={message.content ?? ""}
        onChange={(e) => onChange(e.target.value)}
      />
      {message.role === "assistant" && message.tool_calls?.length ? (
        <ul className="space-y-1 text-xs text-zinc-600">
          {message.tool_calls.map((call) => (
            <li key={call.id} className="break-all font-mono">
              called {call.function.name} {call.function.arguments}
            </li>
          ))}
        </ul>
      ) : null}
      {message.role === "user" && message.images?.length ? (
        <p className="text-xs text-zinc-500">
          with {message.images.length} image{message.images.length === 1 ? "" : "s"}: {message.images.map((i) => i.name ?? i.attachmentId).join(", ")}
        </p>
      ) : null}
    </div>
  );
}
