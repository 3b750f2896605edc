"use client";
// The inbox's waiting calls in one of two layouts. Wide screens: compact rows
// on the left (a dozen fit on a laptop) and the chosen call's full card on the
// right, where it is decided. Narrow screens: the full cards, stacked. Both
// keep identical calls together in a group that says they differ by run.
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import type { InboxItem } from "@/lib/inbox/schemas";
import { ApprovalRow } from "./approval-row";
import type { CallGroup } from "./groups";
import type { HeldDecision } from "./undo-queue";

export interface InboxListProps {
  groups: CallGroup[];
  wide: boolean;
  canDecide: boolean;
  currentId: string | null;
  selected: ReadonlySet<string>;
  heldOf: ReadonlyMap<string, HeldDecision>;
  clockSkewMs: number;
  onChoose: (id: string) => void;
  onToggle: (id: string) => void;
  onSelectAll: (items: InboxItem[]) => void;
  /** The full card of one call (its decision controls included). */
  renderCard: (item: InboxItem) => ReactNode;
}

function GroupHeader({ group, canDecide, onSelectAll }: { group: CallGroup; canDecide: boolean; onSelectAll: (items: InboxItem[]) => void }) {
  if (group.items.length < 2) return null;
  return (
    <div className="flex items-center gap-2 text-xs text-zinc-600">
      <span>
        {group.items.length} identical calls of {group.toolName} from {new Set(group.items.map((i) => i.runId)).size} runs — check each one&apos;s run, task and starter
      </span>
      {canDecide && (
        <Button variant="ghost" className="px-2 py-1 text-xs" onClick={() => onSelectAll(group.items)}>
          Select all {group.items.length}
        </Button>
      )}
    </div>
  );
}

const groupLabel = (group: CallGroup) => (group.items.length > 1 ? `${group.items.length} identical ${group.toolName} calls` : undefined);
const groupClass = (group: CallGroup, gap: string) => (group.items.length > 1 ? `${gap} rounded-lg border border-dashed border-zinc-300 p-2` : gap);

export function InboxList({ groups, wide, canDecide, currentId, selected, heldOf, clockSkewMs, onChoose, onToggle, onSelectAll, renderCard }: InboxListProps) {
  if (groups.length === 0) return null;
  if (!wide) {
    return groups.map((group) => (
      <section key={group.key} aria-label={groupLabel(group)} className={groupClass(group, "space-y-2")}>
        <GroupHeader group={group} canDecide={canDecide} onSelectAll={onSelectAll} />
        {group.items.map(renderCard)}
      </section>
    ));
  }
  const current = currentId ? groups.flatMap((g) => g.items).find((i) => i.id === currentId) : undefined;
  return (
    <div className="grid grid-cols-2 items-start gap-4 2xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]" data-testid="inbox-split">
      {/* The list scrolls on its own, so the chosen card stays beside it while the keys move through a long inbox. */}
      <div role="region" aria-label="Waiting calls" data-testid="inbox-rows" className="max-h-[calc(100vh-14rem)] min-h-64 space-y-2 overflow-y-auto p-1">
        {groups.map((group) => (
          <section key={group.key} aria-label={groupLabel(group)} className={groupClass(group, "space-y-1")}>
            <GroupHeader group={group} canDecide={canDecide} onSelectAll={onSelectAll} />
            <ul className="space-y-1">
              {group.items.map((item) => (
                <ApprovalRow
                  key={item.id}
                  item={item}
                  current={item.id === current?.id}
                  canDecide={canDecide}
                  selected={selected.has(item.id)}
                  onToggleSelect={() => onToggle(item.id)}
                  onChoose={() => onChoose(item.id)}
                  held={heldOf.get(item.id)}
                  clockSkewMs={clockSkewMs}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
      <div role="region" aria-label="Chosen call" data-testid="inbox-detail">
        {current ? (
          renderCard(current)
        ) : (
          <p className="rounded-lg border border-dashed border-zinc-300 p-6 text-sm text-zinc-600">Choose a call to see it whole and decide it: click its row{canDecide ? ", or move to it with j/k" : ""}.</p>
        )}
      </div>
    </div>
  );
}
