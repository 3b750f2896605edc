"use client";
// Named scores on a run or a span (issue 37 §2), beside the thumbs: a key with
// a number or a category ("accuracy" 0.8, "tone" polite), like Langfuse scores
// and LangSmith feedback keys. Each key shows everyone's scores (the mean of
// the numbers, how often each category was given); the caller sets, changes or
// removes their own through the same feedback operation as the thumbs.
import { useState, useTransition, type FormEvent } from "react";
import { SCORE_CATEGORY_MAX, SCORE_KEY_PATTERN, scoreText, type FeedbackItem, type ScoreSummary } from "@/lib/feedback/schemas";
import { setFeedbackAction } from "@/lib/actions/set-feedback";
import { removeFeedbackAction } from "@/lib/actions/remove-feedback";
import { Button } from "@/components/ui/button";
import { describeError } from "./error-text";

/** "0.8 (mean of 2)", "polite ×2 · curt ×1". */
function summaryText(score: ScoreSummary): string {
  const parts: string[] = [];
  if (score.mean !== null) parts.push(`${Number(score.mean.toFixed(3))}${score.count > 1 ? ` (mean of ${score.count - Object.values(score.categories).reduce((a, b) => a + b, 0)})` : ""}`);
  for (const [category, count] of Object.entries(score.categories)) parts.push(count > 1 ? `${category} ×${count}` : category);
  return parts.join(" · ");
}

/** What the value field holds as the operation takes it: a number is a score's value, other text its category. */
function parseScore(text: string): { value: number } | { category: string } {
  const trimmed = text.trim();
  const number = Number(trimmed);
  return trimmed !== "" && Number.isFinite(number) ? { value: number } : { category: trimmed };
}

export function ScoresPanel({ runId, spanId, target, items, scores, knownKeys, onChanged }: { runId: string; spanId?: string; target: "run" | "span"; items: readonly FeedbackItem[]; scores: readonly ScoreSummary[]; knownKeys: readonly string[]; onChanged: () => Promise<void> }) {
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const scored = items.filter((i) => i.key !== null);
  const listId = `score-keys-${runId}-${spanId ?? "run"}`;

  const save = (event: FormEvent) => {
    event.preventDefault();
    startTransition(async () => {
      setError(null);
      const result = await setFeedbackAction({ runId, ...(spanId ? { spanId } : {}), key: key.trim(), ...parseScore(value) });
      if (!result.ok) return setError(describeError(result.error));
      setKey("");
      setValue("");
      await onChanged();
    });
  };
  const remove = (scoreKey: string) =>
    startTransition(async () => {
      setError(null);
      const result = await removeFeedbackAction({ runId, ...(spanId ? { spanId } : {}), key: scoreKey });
      if (!result.ok) return setError(describeError(result.error));
      await onChanged();
    });

  return (
    <div className="space-y-1" data-testid="feedback-scores">
      {scores.length ? (
        <ul className="space-y-0.5">
          {scores.map((score) => (
            <li key={score.key} data-testid="score-summary" data-key={score.key}>
              <span className="font-mono text-zinc-700">{score.key}</span>: <span className="font-medium text-zinc-900">{summaryText(score)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {scored.length ? (
        <ul className="space-y-0.5 text-zinc-600">
          {scored.map((item) => (
            <li key={item.id} data-testid="score-item" data-key={item.key ?? ""} className="break-words">
              <span className="font-mono">{item.key}</span> {scoreText(item)} <span className="text-zinc-500">· {item.user.email}</span>
              {item.comment ? `: ${item.comment}` : ""}
              {item.mine && item.key ? (
                <button type="button" className="ml-2 text-zinc-500 hover:underline" disabled={pending} onClick={() => remove(item.key ?? "")} aria-label={`Remove my score ${item.key}`}>
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <form className="flex flex-wrap items-center gap-1" onSubmit={save} aria-label={`Score this ${target}`}>
        <input
          aria-label={`Score name on this ${target}`}
          className="w-32 rounded-md px-2 py-1 font-mono ring-1 ring-inset ring-zinc-300"
          placeholder="score, e.g. accuracy"
          list={listId}
          value={key}
          pattern={SCORE_KEY_PATTERN.source}
          title="1–64 lowercase letters, digits, _ . or -, starting with a letter"
          onChange={(e) => setKey(e.target.value)}
          required
        />
        <datalist id={listId}>
          {knownKeys.map((k) => (
            <option key={k} value={k} />
          ))}
        </datalist>
        <input
          aria-label={`Score value on this ${target}`}
          className="w-32 rounded-md px-2 py-1 ring-1 ring-inset ring-zinc-300"
          placeholder="0.8 or a category"
          maxLength={SCORE_CATEGORY_MAX}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          required
        />
        <Button type="submit" variant="secondary" className="px-2 py-1 text-xs" disabled={pending || !key.trim() || !value.trim()}>
          Save score
        </Button>
      </form>
      {error ? (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
