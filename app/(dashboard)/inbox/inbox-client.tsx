"use client";
import Link from "@/components/ui/link";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { ApprovalCard, type CardMode } from "@/components/inbox/pending-approval-card";
import { InboxList } from "@/components/inbox/inbox-list";
import { callLabel, cancelledOnLeaveNote, heldVerb, heldWhat, outcomeWords } from "@/components/inbox/decision-words";
import type { Decision, HeldDecision } from "@/components/inbox/undo-queue";
import { UndoToast } from "@/components/inbox/undo-toast";
import { takeCancelledOnLeave, useUndoWindow } from "@/components/inbox/use-undo-window";
import { useWideLayout } from "@/components/inbox/use-wide-layout";
import { useInbox, INBOX_QUERY_KEY } from "@/components/inbox/use-inbox";
import { useLiveInbox } from "@/components/inbox/use-live-inbox";
import { StreamEndedAlert } from "@/components/runs/stream-ended";
import { useInboxKeys } from "@/components/inbox/use-inbox-keys";
import { groupIdentical } from "@/components/inbox/groups";
import { ApproveWhichDialog, ConfirmSelection } from "@/components/inbox/choose-calls";
import { DecidedHere } from "@/components/inbox/decided-here";
import { bulkDecideApprovalsAction } from "@/lib/actions/bulk-decide-approvals";
import { decideApprovalAction } from "@/lib/actions/decide-approval";
import { isBudgetApproval } from "@/lib/contract/budget-approval";
import { isSpendLimitApproval } from "@/lib/contract/spend-limit-approval";
import { isPlanApproval } from "@/lib/contract/plan-approval";
import { isMine } from "@/lib/inbox/identity";
import type { BulkOutcome, InboxItem } from "@/lib/inbox/schemas";

function summarize(outcomes: BulkOutcome[]): string {
  const done = outcomes.filter((o) => o.ok).length;
  const refused = outcomes.filter((o): o is Extract<BulkOutcome, { ok: false }> => !o.ok);
  return [`${done} decided`, ...(refused.length ? [`${refused.length} refused: ${[...new Set(refused.map((r) => r.message))].join("; ")}`] : [])].join(", ");
}

const DECIDED_KEPT = 5;

/** The browser's focus follows the keys: the row (wide) or the card (stacked) of `id`, brought into view. */
function focusElementOf(id: string) {
  requestAnimationFrame(() => {
    const element = document.querySelector<HTMLElement>(`[data-focus-for="${CSS.escape(id)}"]`);
    element?.scrollIntoView({ block: "nearest" });
    element?.focus({ preventScroll: true });
  });
}

/**
 * The live inbox: grouped identical calls, each saying whose run it is; a
 * compact list beside the chosen card on wide screens; a "mine" filter;
 * selection, bulk and keyboard triage that never decides a card the user did
 * not move to, asks which calls before approving a group, and holds every
 * keyboard decision for an undo window before anything is sent.
 */
export function InboxClient({ canDecide, me }: { canDecide: boolean; me: string }) {
  // The approvals feed keeps the inbox current; the one-second poll runs only while it is down, and neither once
  // the feed ended because the viewer's access did (the page says why instead).
  const live = useLiveInbox();
  const inbox = useInbox(undefined, { live: live.path !== "polling" });
  const queryClient = useQueryClient();
  // A link to one waiting call (/inbox?approval=…, from the runs list's "stuck or burning"): that call is chosen.
  const linked = useSearchParams().get("approval");
  const [focusedId, setFocusedId] = useState<string | null>(linked);
  const [open, setOpen] = useState<{ id: string; mode: CardMode } | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulkReason, setBulkReason] = useState("");
  const [confirming, setConfirming] = useState<boolean | null>(null);
  const [askWhich, setAskWhich] = useState<{ groupKey: string; focusedId: string } | null>(null);
  const [mineOnly, setMineOnly] = useState(false);
  const [decided, setDecided] = useState<InboxItem[]>([]);
  // A decision cancelled because the user left during its window is told on their return (once).
  const [status, setStatus] = useState<{ tone: "success" | "error" | "info"; text: string } | null>(() => {
    const dropped = takeCancelledOnLeave();
    return dropped.length ? { tone: "info", text: cancelledOnLeaveNote(dropped) } : null;
  });
  const wide = useWideLayout();
  const [bulkBusy, setBulkBusy] = useState(false);

  const all = inbox.data?.items ?? [];
  const items = mineOnly ? all.filter((i) => isMine(i, me)) : all;
  const groups = groupIdentical(items);
  const ordered = groups.flatMap((g) => g.items);
  const byId = new Map(items.map((i) => [i.id, i]));
  const groupOf = new Map(groups.flatMap((g) => g.items.map((i) => [i.id, g] as const)));
  // Selections and focus of approvals that left the inbox (or the filter) are ignored, not copied into state:
  // no other card takes the focus in their place.
  const selection = [...selected].map((id) => byId.get(id)).filter((i): i is InboxItem => i !== undefined);
  const focused = focusedId ? byId.get(focusedId) : undefined;
  const skew = inbox.data ? Date.parse(inbox.data.serverTime) - inbox.dataUpdatedAt : 0;
  const asked = askWhich ? groups.find((g) => g.key === askWhich.groupKey) : undefined;

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const modeOf = (id: string): CardMode => (open?.id === id ? open.mode : "idle");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: INBOX_QUERY_KEY });
  // Tool calls only: they have a result to show after the decision (a grant of tokens or a plan has none).
  const remember = (done: InboxItem[]) => {
    const calls = done.filter((d) => !isBudgetApproval(d) && !isPlanApproval(d) && !isSpendLimitApproval(d));
    setDecided((current) => [...calls, ...current.filter((d) => !calls.some((x) => x.id === d.id))].slice(0, DECIDED_KEPT));
  };

  // A keyboard decision's window is over: send it as the buttons would.
  async function sendHeld({ items: chosen, decision }: HeldDecision) {
    const [only] = chosen;
    if (chosen.length === 1 && only) {
      const result = await decideApprovalAction({ runId: only.runId, approvalId: only.id, ...decision });
      setStatus(result.ok ? { tone: "success", text: `${callLabel(only)}: ${outcomeWords(result.data)}` } : { tone: "error", text: result.error.message });
      if (result.ok) remember([only]);
      refresh();
    } else await decideMany(chosen, decision.approved, decision.reason);
  }
  const { held, hold, undo } = useUndoWindow((entry) => void sendHeld(entry));
  const heldOf = new Map(held.flatMap((entry) => entry.items.map((i) => [i.id, entry] as const)));
  const holdDecision = (chosen: InboxItem[], decision: Decision) => {
    // The toast speaks for the held decision; an older status line would read as its outcome.
    setStatus(null);
    hold(chosen, decision);
  };
  const undoHeld = (key?: number) => {
    const entry = undo(key);
    setStatus(entry ? { tone: "info", text: `Undone: ${heldVerb(entry).toLowerCase()} ${heldWhat(entry)}. Nothing was sent; it still waits.` } : { tone: "info", text: "Nothing to undo." });
  };
  const choose = (id: string) => {
    setFocusedId(id);
    focusElementOf(id);
  };
  // The linked call is brought into view once, when the inbox first lists it.
  const linkedShown = useRef(false);
  const linkedWaiting = linked !== null && byId.has(linked);
  useEffect(() => {
    if (!linked || !linkedWaiting || linkedShown.current) return;
    linkedShown.current = true;
    focusElementOf(linked);
  }, [linked, linkedWaiting]);

  async function decideMany(chosen: InboxItem[], approved: boolean, reason = bulkReason.trim()) {
    setBulkBusy(true);
    const result = await bulkDecideApprovalsAction({ items: chosen.map((i) => ({ runId: i.runId, approvalId: i.id })), approved, ...(approved ? {} : { reason }) });
    setBulkBusy(false);
    setConfirming(null);
    if (result.ok) {
      setStatus({ tone: result.data.every((o) => o.ok) ? "success" : "error", text: summarize(result.data) });
      setSelected(new Set());
      setBulkReason("");
      remember(chosen.filter((c) => result.data.some((o) => o.ok && o.approvalId === c.id)));
    } else setStatus({ tone: "error", text: result.error.message });
    refresh();
  }

  useInboxKeys({
    enabled: canDecide && askWhich === null && confirming === null,
    ids: ordered.map((i) => i.id),
    focusedId: focused?.id ?? null,
    onFocus: choose,
    onApprove: (id) => {
      const item = byId.get(id);
      const group = groupOf.get(id);
      // A call already held waits for its window (u takes it back); a second key does not send it twice.
      if (!item || heldOf.has(id)) return;
      // Identical calls of other runs sit beside this one: ask which, never guess.
      if (group && group.items.length > 1) setAskWhich({ groupKey: group.key, focusedId: id });
      else holdDecision([item], { approved: true });
    },
    onReject: (id) => {
      if (!heldOf.has(id)) setOpen({ id, mode: "reject" });
    },
    onEdit: (id) => {
      if (!heldOf.has(id)) setOpen({ id, mode: "edit" });
    },
    onToggle: toggle,
    onNoFocus: () => setStatus({ tone: "info", text: "No card is chosen: move to one with j/k first." }),
    onUndo: () => undoHeld(),
  });

  return (
    <div className="space-y-4" data-testid="inbox" data-live={live.path}>
      <StreamEndedAlert end={live.ended} />
      <div className="flex flex-wrap items-center gap-3 text-sm text-zinc-600">
        <span data-testid="inbox-count">{inbox.isPending ? "Loading…" : mineOnly ? `${items.length} of ${all.length} waiting are mine` : `${items.length} waiting`}</span>
        <div role="group" aria-label="Show" className="flex rounded-md ring-1 ring-zinc-300">
          <button type="button" aria-pressed={!mineOnly} onClick={() => setMineOnly(false)} className={`rounded-l-md px-2 py-1 text-xs ${mineOnly ? "" : "bg-zinc-900 text-white"}`}>
            All
          </button>
          <button
            type="button"
            aria-pressed={mineOnly}
            title="Runs you started, and runs where you already decided an approval"
            onClick={() => setMineOnly(true)}
            className={`rounded-r-md px-2 py-1 text-xs ${mineOnly ? "bg-zinc-900 text-white" : ""}`}
          >
            Mine
          </button>
        </div>
        {canDecide ? <span className="text-xs">Keys: j/k move · a approve · r reject · e edit · x select · Ctrl+Enter send · u undo</span> : <span className="text-xs">Read-only: approvers and admins decide.</span>}
        <Link href="/inbox/audit" className="ml-auto underline">
          Audit
        </Link>
      </div>
      {inbox.error && <Alert tone="error">{inbox.error.message}</Alert>}
      {status && <Alert tone={status.tone}>{status.text}</Alert>}
      {linked && inbox.data && !all.some((i) => i.id === linked) ? (
        <Alert tone="info">The call this link names is no longer waiting: it was decided or expired, or its run ended. Its run&apos;s page has what happened.</Alert>
      ) : null}

      {canDecide && selection.length > 0 && (
        <section aria-label="Bulk decision" className="flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 p-3">
          {confirming === null ? (
            <>
              <span className="text-sm">{selection.length} selected</span>
              <Button disabled={bulkBusy} onClick={() => setConfirming(true)}>
                Approve selected…
              </Button>
              <input aria-label="Reason for rejecting the selection" placeholder="Reason (needed to reject)" className="min-w-64 flex-1 rounded-md border border-zinc-300 px-2 py-1.5 text-sm" value={bulkReason} onChange={(e) => setBulkReason(e.target.value)} />
              <Button variant="danger" disabled={bulkBusy || !bulkReason.trim()} onClick={() => setConfirming(false)}>
                Reject selected…
              </Button>
              <Button variant="ghost" onClick={() => setSelected(new Set())}>
                Clear
              </Button>
            </>
          ) : (
            <ConfirmSelection items={selection} approved={confirming} busy={bulkBusy} onConfirm={() => void decideMany(selection, confirming)} onCancel={() => setConfirming(null)} />
          )}
        </section>
      )}

      {asked && askWhich && (
        <ApproveWhichDialog
          items={asked.items}
          focusedId={askWhich.focusedId}
          onClose={() => setAskWhich(null)}
          onApprove={(chosen) => {
            setAskWhich(null);
            holdDecision(chosen, { approved: true });
          }}
        />
      )}

      {!inbox.isPending && items.length === 0 && (
        <EmptyState title={mineOnly && all.length > 0 ? "Nothing of yours is waiting" : "Nothing waiting for approval"}>
          {mineOnly && all.length > 0
            ? `${all.length} other approvals wait; "All" shows them. Mine are runs you started and runs where you already decided an approval.`
            : "When a run or sub-agent calls a tool that matches an approval rule, reaches a token budget set to ask for more, or proposes a plan its graph wants approved, it pauses and the request appears here within a second."}
        </EmptyState>
      )}

      <InboxList
        groups={groups}
        wide={wide}
        canDecide={canDecide}
        currentId={focused?.id ?? null}
        selected={selected}
        heldOf={heldOf}
        clockSkewMs={skew}
        onChoose={choose}
        onToggle={toggle}
        onSelectAll={(chosen) => setSelected((current) => new Set([...current, ...chosen.map((i) => i.id)]))}
        renderCard={(item) => (
          <ApprovalCard
            key={item.id}
            item={item}
            canDecide={canDecide}
            mode={modeOf(item.id)}
            onModeChange={(mode) => {
              setOpen(mode === "idle" ? null : { id: item.id, mode });
              // Closing a form (Esc, Cancel, Ctrl+Enter) hands the keys back to where the user was.
              if (mode === "idle" && focused?.id === item.id) focusElementOf(item.id);
            }}
            focused={focused?.id === item.id}
            focusTarget={!wide}
            selected={selected.has(item.id)}
            onToggleSelect={() => toggle(item.id)}
            clockSkewMs={skew}
            onDecided={(text) => {
              setStatus({ tone: "success", text });
              remember([item]);
            }}
            onKeyDecision={(decision) => holdDecision([item], decision)}
            held={heldOf.get(item.id)}
            onUndo={() => undoHeld(heldOf.get(item.id)?.key)}
          />
        )}
      />

      <DecidedHere items={decided} />
      <UndoToast held={held} onUndo={undoHeld} />
    </div>
  );
}
