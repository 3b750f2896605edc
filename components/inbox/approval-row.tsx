"use client";
// One waiting call as a compact row of the inbox's list (wide screens): what
// it is, whose run, the arguments an approver weighs, and how long it has —
// two lines, so a screen holds a dozen. Choosing it opens its card beside.
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { shortRunId } from "@/lib/inbox/identity";
import type { InboxItem } from "@/lib/inbox/schemas";
import { Countdown } from "./countdown";
import { heldVerb } from "./decision-words";
import { wordingOf } from "./pending-approval-card";
import { rowSummary } from "./row-summary";
import { SecondsLeft } from "./undo-toast";
import type { HeldDecision } from "./undo-queue";

export interface ApprovalRowProps {
  item: InboxItem;
  current: boolean;
  canDecide: boolean;
  selected: boolean;
  onToggleSelect: () => void;
  onChoose: () => void;
  held?: HeldDecision;
  clockSkewMs?: number;
}

export function ApprovalRow({ item, current, canDecide, selected, onToggleSelect, onChoose, held, clockSkewMs }: ApprovalRowProps) {
  const { title, summary } = rowSummary(item);
  const task = item.identity?.task;
  return (
    <li
      data-testid="approval-row"
      data-row-for={item.id}
      aria-current={current ? "true" : undefined}
      // The current row reads without colour too: a 3 px outline and a bar down its left edge.
      className={cn("relative flex items-start gap-2 rounded-md border py-1.5 pr-2 pl-3", current ? "border-indigo-600 bg-indigo-50 outline-3 -outline-offset-1 outline-indigo-600" : "border-zinc-200 bg-white hover:bg-zinc-50")}
    >
      {current && <span aria-hidden data-testid="focus-bar" className="absolute inset-y-0 left-0 w-1.5 rounded-l-md bg-indigo-600" />}
      {canDecide && <input type="checkbox" className="mt-1" aria-label={wordingOf(item).select} checked={selected} onChange={onToggleSelect} />}
      {/* The current row's own outline shows the focus; another row focused by Tab gets the button's. */}
      <button type="button" data-focus-for={item.id} onClick={onChoose} className={cn("min-w-0 flex-1 text-left", current ? "focus-visible:outline-none" : "focus-visible:outline-2 focus-visible:outline-indigo-600")}>
        <span className="flex items-center gap-2 text-xs">
          <span className={cn("shrink-0 text-sm font-semibold", title === item.toolName && "font-mono")}>{title}</span>
          <span className="min-w-0 truncate text-zinc-600">{item.agentName}</span>
          <span className="ml-auto shrink-0">
            {held ? (
              <Badge tone="warning">
                {heldVerb(held).toLowerCase()} in <SecondsLeft at={held.sendAt} /> s
              </Badge>
            ) : (
              <Countdown expiresAt={item.expiresAt} clockSkewMs={clockSkewMs} testId="row-countdown" />
            )}
          </span>
        </span>
        <span className="block truncate text-xs text-zinc-700" title={task ? `${summary} — ${task}` : summary} data-testid="row-summary">
          <span className="font-mono text-zinc-500">run {shortRunId(item.runId)}</span> · {summary}
          {task ? <span className="text-zinc-500"> — {task}</span> : null}
        </span>
      </button>
    </li>
  );
}
