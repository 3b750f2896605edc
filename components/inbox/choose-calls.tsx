"use client";
// Before approving several calls at once, say which: the dialog an approve by
// key opens on a grouped card (each identical call with its run, task and
// starter, or all of them), and the confirmation a bulk decision shows before
// it applies. Identical arguments are not the same request.
import { Button } from "@/components/ui/button";
import { describeRun } from "@/lib/inbox/identity";
import type { InboxItem } from "@/lib/inbox/schemas";

/** "Approve which?" for a group of identical calls; the focused card's own call comes first and holds the focus. */
export function ApproveWhichDialog({ items, focusedId, onApprove, onClose }: { items: InboxItem[]; focusedId: string; onApprove: (items: InboxItem[]) => void; onClose: () => void }) {
  const ordered = [...items].sort((a, b) => Number(b.id === focusedId) - Number(a.id === focusedId));
  const toolName = items[0]?.toolName ?? "call";
  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center bg-zinc-900/40 p-8" onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), onClose())}>
      <div role="dialog" aria-modal="true" aria-label={`Approve which ${toolName} calls?`} className="w-full max-w-xl space-y-3 rounded-lg bg-white p-5 shadow-xl">
        <h2 className="text-base font-semibold">Approve which {toolName} calls?</h2>
        <p className="text-sm text-zinc-600">
          {items.length} calls have the same arguments but come from different runs. Approve only the ones you mean.
        </p>
        <ul className="space-y-2">
          {ordered.map((item, i) => (
            <li key={item.id}>
              <Button autoFocus={i === 0} variant={item.id === focusedId ? "primary" : "secondary"} className="w-full justify-start text-left" onClick={() => onApprove([item])}>
                Approve {describeRun(item)}
                {item.id === focusedId ? " (the card you are on)" : ""}
              </Button>
            </li>
          ))}
        </ul>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={() => onApprove(items)}>
            Approve all {items.length}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </div>
    </div>
  );
}

/** What a bulk decision will touch, listed before it applies. */
export function ConfirmSelection({ items, approved, busy, onConfirm, onCancel }: { items: InboxItem[]; approved: boolean; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const verb = approved ? "Approve" : "Reject";
  return (
    <div role="group" aria-label={`Confirm: ${verb.toLowerCase()} ${items.length} selected`} className="w-full space-y-2 rounded-md border border-indigo-300 bg-white p-3">
      <p className="text-sm font-medium">
        {verb} these {items.length}?
      </p>
      <ul className="list-disc space-y-0.5 pl-5 text-xs text-zinc-700" data-testid="selection-summary">
        {items.map((item) => (
          <li key={item.id}>
            <span className="font-mono">{item.toolName}</span> — {describeRun(item)}
          </li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button variant={approved ? "primary" : "danger"} disabled={busy} onClick={onConfirm}>
          {verb} these {items.length}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={onCancel}>
          Back
        </Button>
      </div>
    </div>
  );
}
