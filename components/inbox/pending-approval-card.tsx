"use client";
import { useId, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { decideApprovalAction } from "@/lib/actions/decide-approval";
import { approvalSubject, isBudgetApproval, requestedTokens } from "@/lib/contract/budget-approval";
import { isPlanApproval } from "@/lib/contract/plan-approval";
import { isSpendLimitApproval } from "@/lib/contract/spend-limit-approval";
import type { InboxItem } from "@/lib/inbox/schemas";
import { formatCost, formatTokens } from "@/lib/runs/pricing";
import type { UsageCost } from "@/lib/runs/schemas";
import { Countdown } from "./countdown";
import { BudgetRequestSummary, GrantTokensForm } from "./budget-request";
import { EditPlanForm, PlanRequestSummary } from "./plan-request";
import { SpendLimitRequestSummary } from "./spend-limit-request";
import { GuardrailHoldNote } from "./guardrail-hold";
import { EditArguments } from "./edit-arguments";
import { INBOX_QUERY_KEY } from "./use-inbox";
import { RunIdentityLine } from "./run-identity";
import { outcomeWords } from "./decision-words";
import { SUBMIT_HINT } from "./edit-arguments";
import { HeldBanner } from "./undo-toast";
import type { Decision, HeldDecision } from "./undo-queue";
import { isSubmitChord } from "./use-inbox-keys";
import { DateTime } from "@/components/ui/date-time";

export type CardMode = "idle" | "reject" | "edit";

export interface ApprovalCardProps {
  item: InboxItem;
  canDecide: boolean;
  mode: CardMode;
  onModeChange: (mode: CardMode) => void;
  focused?: boolean;
  selected?: boolean;
  onToggleSelect?: () => void;
  clockSkewMs?: number;
  /** Called with a sentence for the page's status line. */
  onDecided?: (message: string) => void;
  /**
   * Where Ctrl/Cmd+Enter sends a reject or an edit (the inbox holds it for its undo window); without it
   * the chord sends at once, as the button does.
   */
  onKeyDecision?: (decision: Decision) => void;
  /** A keyboard decision on this call, held and not sent yet: shown with Undo; the buttons wait. */
  held?: HeldDecision;
  onUndo?: () => void;
  /** The keyboard's j/k stop here (the stacked inbox): the card takes the browser's focus. */
  focusTarget?: boolean;
}

const usage = (u: UsageCost) => `${formatTokens(u.tokens)}, ${formatCost(u.cost)}`;

/** Sends one decision; the workflow is the judge (role, policy, already decided). */
export function useDecide(item: InboxItem, onDecided?: (message: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (decision: Decision) => {
      const result = await decideApprovalAction({ runId: item.runId, approvalId: item.id, ...decision });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onSuccess: (approval) => {
      onDecided?.(`${approvalSubject(item)} (${item.agentName}): ${outcomeWords(approval)}`);
      void queryClient.invalidateQueries({ queryKey: INBOX_QUERY_KEY });
    },
  });
}

/** How the card (and its compact row) words its title, buttons and reason for each kind of approval. */
export function wordingOf(item: InboxItem) {
  if (isBudgetApproval(item)) {
    return { label: `more tokens requested by ${item.agentName}`, select: `Select token request ${item.id}`, approve: `Grant ${requestedTokens(item).toLocaleString("en")} tokens`, edit: "Grant another amount", reject: "Stop the run", reason: "Reason (the run's failure says it)" };
  }
  if (isSpendLimitApproval(item)) {
    return { label: `spend limit reached by ${item.agentName}`, select: `Select spend limit request ${item.id}`, approve: "Go on (limit raised)", edit: "", reject: "Stop the run", reason: "Reason (the run's failure says it)" };
  }
  if (isPlanApproval(item)) {
    return { label: `plan proposed by ${item.agentName}`, select: `Select plan ${item.id}`, approve: "Approve plan", edit: "Edit plan", reject: "Reject plan", reason: "Reason (the planner reads it and plans again)" };
  }
  return { label: `${item.toolName} requested by ${item.agentName}`, select: `Select ${item.toolName} call ${item.id}`, approve: "Approve", edit: "Edit and approve", reject: "Reject", reason: "Reason (the model reads it)" };
}

/**
 * One pending approval with everything needed to decide it, for the inbox and
 * the run page: a tool call, a run at its token budget asking for more, or a
 * planner's plan waiting to run.
 */
export function ApprovalCard({ item, canDecide, mode, onModeChange, focused, selected, onToggleSelect, clockSkewMs, onDecided, onKeyDecision, held, onUndo, focusTarget }: ApprovalCardProps) {
  const id = useId();
  const [reason, setReason] = useState("");
  const decide = useDecide(item, onDecided);
  const busy = decide.isPending || decide.isSuccess || held !== undefined;
  // The button sends at once; the chord goes through the inbox's undo window when there is one.
  const send = (decision: Decision, byKey: boolean) => {
    if (byKey && onKeyDecision) {
      onKeyDecision(decision);
      onModeChange("idle");
    } else decide.mutate(decision);
  };
  const budget = isBudgetApproval(item);
  const plan = isPlanApproval(item);
  const spend = isSpendLimitApproval(item);
  const words = wordingOf(item);

  return (
    <article
      aria-label={words.label}
      data-testid="approval-card"
      data-approval-id={item.id}
      aria-current={focused ? "true" : undefined}
      tabIndex={focusTarget ? -1 : undefined}
      data-focus-for={focusTarget ? item.id : undefined}
      // The focus reads without colour too: a 3 px outline and a bar down the left edge.
      className={cn("relative space-y-3 rounded-lg border bg-white p-4 shadow-sm", focused ? "border-indigo-600 outline-3 outline-offset-2 outline-indigo-600" : "border-zinc-200")}
    >
      {focused && <span aria-hidden data-testid="focus-bar" className="absolute inset-y-0 left-0 w-2 rounded-l-lg bg-indigo-600" />}
      <header className="flex flex-wrap items-center gap-2">
        {onToggleSelect && canDecide && (
          <input type="checkbox" aria-label={words.select} checked={selected ?? false} onChange={onToggleSelect} />
        )}
        {budget ? <h3 className="text-sm font-semibold">Token budget</h3> : spend ? <h3 className="text-sm font-semibold">Spend limit</h3> : plan ? <h3 className="text-sm font-semibold">Plan</h3> : <h3 className="font-mono text-sm font-semibold">{item.toolName}</h3>}
        <Badge>{item.agentName}</Badge>
        {item.requiredRole && <Badge tone="warning">needs {item.requiredRole}</Badge>}
        {item.unconfirmed && (
          <span title="The run did not answer in time; this is the ledger's record, which may trail the run. Deciding still asks the run." data-testid="approval-unconfirmed">
            <Badge tone="warning">not confirmed by the run</Badge>
          </span>
        )}
        {item.requiredApprovals > 1 && (
          <Badge tone="info">
            {item.endorsements.length} of {item.requiredApprovals} approvals
          </Badge>
        )}
        <span className="ml-auto text-xs">
          <Countdown expiresAt={item.expiresAt} clockSkewMs={clockSkewMs} />
        </span>
      </header>

      <RunIdentityLine item={item} />

      <GuardrailHoldNote item={item} />

      {item.precedingMessage && (
        <blockquote className="border-l-2 border-zinc-300 pl-3 text-sm whitespace-pre-wrap text-zinc-700" data-testid="approval-preceding-message">
          {item.precedingMessage}
        </blockquote>
      )}
      {budget ? (
        <BudgetRequestSummary item={item} />
      ) : spend ? (
        <SpendLimitRequestSummary item={item} />
      ) : plan ? (
        <PlanRequestSummary item={item} decider={canDecide ? mode : null} />
      ) : (
        <pre className="max-h-60 overflow-auto rounded-md bg-zinc-950 p-3 text-xs text-zinc-100" data-testid="approval-arguments">
          {JSON.stringify(item.arguments, null, 2)}
        </pre>
      )}

      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600">
        <div>
          <dt className="inline">requested </dt>
          <dd className="inline">
            <DateTime value={item.requestedAt} />
            {item.requestedBy && !item.identity?.startedBy ? ` · run by ${item.requestedBy}` : ""}
          </dd>
        </div>
        <div>
          <dt className="inline">used so far </dt>
          <dd className="inline" data-testid="approval-usage">
            {usage(item.runUsage)} this run · {usage(item.treeUsage)} with its parent and sub-runs
          </dd>
        </div>
        {item.endorsements.length > 0 && (
          <div>
            <dt className="inline">approved so far by </dt>
            <dd className="inline">{item.endorsements.map((e) => e.by.email).join(", ")}</dd>
          </div>
        )}
      </dl>

      {decide.error && (
        <p role="alert" className="text-sm text-red-700">
          {decide.error.message}
        </p>
      )}

      {held && <HeldBanner entry={held} onUndo={() => onUndo?.()} />}

      {canDecide && mode === "idle" && (
        <div className="flex flex-wrap gap-2">
          <Button disabled={busy} onClick={() => send({ approved: true }, false)}>
            {words.approve}
          </Button>
          {spend ? null : (
            <Button variant="secondary" disabled={busy} onClick={() => onModeChange("edit")}>
              {words.edit}
            </Button>
          )}
          <Button variant="danger" disabled={busy} onClick={() => onModeChange("reject")}>
            {`${words.reject}…`}
          </Button>
        </div>
      )}
      {canDecide && mode === "reject" && (
        <form
          className="space-y-2"
          aria-label="Reject"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason.trim()) send({ approved: false, reason: reason.trim() }, false);
          }}
        >
          <label htmlFor={`${id}-reason`} className="block text-xs font-medium text-zinc-700">
            {words.reason}
          </label>
          <textarea
            id={`${id}-reason`}
            autoFocus
            required
            className="h-20 w-full rounded-md border border-zinc-300 p-2 text-sm"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") onModeChange("idle");
              else if (isSubmitChord(e)) {
                // Plain Enter stays a newline in the reason; the chord sends it.
                e.preventDefault();
                if (reason.trim() && !busy) send({ approved: false, reason: reason.trim() }, true);
              }
            }}
          />
          <div className="flex gap-2">
            <Button type="submit" variant="danger" disabled={busy || !reason.trim()}>
              {words.reject}
            </Button>
            <Button type="button" variant="ghost" onClick={() => onModeChange("idle")}>
              Cancel
            </Button>
            <span className="self-center text-xs text-zinc-500">{SUBMIT_HINT}</span>
          </div>
        </form>
      )}
      {canDecide && mode === "edit" && budget && (
        <GrantTokensForm item={item} pending={busy} onCancel={() => onModeChange("idle")} onSubmit={(grant, byKey) => send({ approved: true, editedArguments: grant }, byKey)} />
      )}
      {canDecide && mode === "edit" && plan && (
        <EditPlanForm item={item} pending={busy} onCancel={() => onModeChange("idle")} onSubmit={(edited, approvedLine) => decide.mutate({ approved: true, editedArguments: edited }, { onSuccess: () => onDecided?.(approvedLine) })} />
      )}
      {canDecide && mode === "edit" && !budget && !plan && !spend && (
        <EditArguments schema={item.toolSchema} original={item.arguments} pending={busy} onCancel={() => onModeChange("idle")} onSubmit={(edited, byKey) => send({ approved: true, editedArguments: edited }, byKey)} />
      )}
    </article>
  );
}

/** The card with its own editing state, for pages that show one approval at a time (the run page). */
export function PendingApprovalCard(props: Omit<ApprovalCardProps, "mode" | "onModeChange">) {
  const [mode, setMode] = useState<CardMode>("idle");
  return <ApprovalCard {...props} mode={mode} onModeChange={setMode} />;
}
