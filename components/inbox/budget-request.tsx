"use client";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { budgetRequestSentence, requestedTokens, tokenGrantProblems } from "@/lib/contract/budget-approval";
import type { InboxItem } from "@/lib/inbox/schemas";
import { SUBMIT_HINT } from "./edit-arguments";
import { isSubmitChord } from "./use-inbox-keys";

const tokens = (n: number) => n.toLocaleString("en");

/** What a run at its token budget asks for, in place of a tool call's arguments. */
export function BudgetRequestSummary({ item }: { item: InboxItem }) {
  return (
    <div className="space-y-1 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm" data-testid="approval-budget">
      <p className="font-medium text-amber-900">{budgetRequestSentence(item)}</p>
      <p className="text-amber-800">
        Approving grants {tokens(requestedTokens(item))} more tokens (you may change the amount); rejecting stops the run with budget_exceeded.
      </p>
    </div>
  );
}

/** Parses the amount field; the same check the workflow applies to the decision. */
function parseAmount(raw: string): { tokens: number } | { problem: string } {
  const value = Number(raw.replaceAll(",", "").trim());
  if (raw.trim() === "" || !Number.isFinite(value)) return { problem: "tokens: enter a number" };
  const problem = tokenGrantProblems({ tokens: value })[0];
  return problem ? { problem } : { tokens: value };
}

/** The amount of tokens to grant, editable, defaulting to what the run asked for. */
export function GrantTokensForm({ item, pending, onSubmit, onCancel }: { item: InboxItem; pending: boolean; onSubmit: (grant: { tokens: number }, byKey: boolean) => void; onCancel: () => void }) {
  const id = useId();
  const [raw, setRaw] = useState(() => String(requestedTokens(item)));
  const [showProblem, setShowProblem] = useState(false);
  const parsed = parseAmount(raw);
  const submit = (byKey: boolean) => {
    setShowProblem(true);
    if ("tokens" in parsed && !pending) onSubmit(parsed, byKey);
  };

  return (
    <form
      aria-label="Grant tokens"
      // Our own check and message, as the workflow words it (the browser's would block the submit silently).
      noValidate
      className="space-y-2 rounded-md border border-zinc-200 bg-zinc-50 p-3"
      onSubmit={(event) => {
        event.preventDefault();
        submit(false);
      }}
    >
      <label htmlFor={`${id}-tokens`} className="block text-xs font-medium text-zinc-700">
        Tokens to grant
      </label>
      <Input
        id={`${id}-tokens`}
        type="number"
        min={1}
        step={1}
        inputMode="numeric"
        autoFocus
        className="max-w-48"
        value={raw}
        onChange={(e) => setRaw(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") onCancel();
          else if (e.key === "Enter") {
            // Plain Enter sends nothing; Ctrl/Cmd+Enter does (held for the inbox's undo window).
            e.preventDefault();
            if (isSubmitChord(e)) submit(true);
          }
        }}
      />
      {"tokens" in parsed && item.budget && <p className="text-xs text-zinc-600">The budget becomes {tokens(item.budget.limit + parsed.tokens)} tokens.</p>}
      {showProblem && "problem" in parsed && (
        <p role="alert" className="text-xs text-red-700">
          {parsed.problem}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          Grant tokens
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <span className="text-xs text-zinc-500">{SUBMIT_HINT}</span>
      </div>
    </form>
  );
}
