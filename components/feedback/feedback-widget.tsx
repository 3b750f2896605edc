"use client";
// Thumbs up/down and a comment on a run (no spanId) or one of its spans
// (issue 27 §5), and named scores (issue 37 §2, scores-panel.tsx): the counts
// and everyone's comments and scores, and the caller's own feedback to give,
// change or remove. Any signed-in role may rate. The thumbs are drawn as SVG
// (thumb-icon.tsx), never emoji, which some browsers show as empty boxes.
import { useState, useTransition } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson } from "@/lib/http/client";
import { can } from "@/lib/access/roles";
import { FEEDBACK_COMMENT_MAX, feedbackOf, type FeedbackItem, type FeedbackRating } from "@/lib/feedback/schemas";
import { setFeedbackAction } from "@/lib/actions/set-feedback";
import { removeFeedbackAction } from "@/lib/actions/remove-feedback";
import { Button } from "@/components/ui/button";
import { AddToDatasetDialog } from "@/components/datasets/add-to-dataset-dialog";
import { describeError } from "./error-text";
import { ThumbIcon } from "./thumb-icon";
import { ScoresPanel } from "./scores-panel";

/** The query every widget of one run shares (the list is read once per run). */
export function feedbackQueryKey(runId: string) {
  return ["feedback", runId] as const;
}

export function useRunFeedback(runId: string) {
  return useQuery({
    queryKey: feedbackQueryKey(runId),
    queryFn: () => getJson<{ runId: string; items: FeedbackItem[] }>(`/api/runs/${encodeURIComponent(runId)}/feedback`, { what: "feedback" }),
  });
}

export function FeedbackWidget({ runId, spanId, title }: { runId: string; spanId?: string; title: string }) {
  const queryClient = useQueryClient();
  const feedback = useRunFeedback(runId);
  // Adding to a dataset is for roles that edit agents (the dialog's operation checks it again).
  const me = useQuery({ queryKey: ["me"], queryFn: () => getJson<{ user: { role: string } }>("/api/me", { what: "your account" }), staleTime: 60_000 });
  const { items, counts, scores } = feedbackOf(feedback.data?.items ?? [], runId, spanId ?? null);
  // The thumbs are the rows without a key; scores are listed apart.
  const mine = items.find((i) => i.mine && i.key === null);
  const knownKeys = [...new Set((feedback.data?.items ?? []).flatMap((i) => (i.key ? [i.key] : [])))].sort();
  const [rating, setRating] = useState<FeedbackRating | null>(null);
  const [comment, setComment] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const chosen = rating ?? mine?.rating ?? null;
  const text = comment ?? mine?.comment ?? "";
  const target = spanId ? "span" : "run";

  const done = async () => {
    setRating(null);
    setComment(null);
    await queryClient.invalidateQueries({ queryKey: feedbackQueryKey(runId) });
  };
  const save = (next: FeedbackRating) =>
    startTransition(async () => {
      setError(null);
      const result = await setFeedbackAction({ runId, ...(spanId ? { spanId } : {}), rating: next, ...(text.trim() ? { comment: text } : {}) });
      if (!result.ok) return setError(describeError(result.error));
      await done();
    });
  const remove = () =>
    startTransition(async () => {
      setError(null);
      const result = await removeFeedbackAction({ runId, ...(spanId ? { spanId } : {}) });
      if (!result.ok) return setError(describeError(result.error));
      await done();
    });

  return (
    <section aria-label={title} data-testid={spanId ? "span-feedback" : "run-feedback"} className="space-y-2 rounded-md border border-zinc-200 p-2 text-xs">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-zinc-700">{title}</span>
        <span data-testid="feedback-counts" className="inline-flex items-center gap-1 text-zinc-600">
          <ThumbIcon rating="up" /> {counts.up} up · <ThumbIcon rating="down" /> {counts.down} down
        </span>
        <span className="ml-auto flex gap-1">
          {(["up", "down"] as const).map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={chosen === r}
              aria-label={r === "up" ? `Thumbs up on this ${target}` : `Thumbs down on this ${target}`}
              onClick={() => (mine ? save(r) : setRating(r))}
              disabled={pending}
              className={`rounded-md px-2 py-1 ring-1 ring-inset ${chosen === r ? "bg-indigo-50 ring-indigo-400" : "ring-zinc-300 hover:bg-zinc-50"}`}
            >
              <ThumbIcon rating={r} className="h-4 w-4" />
            </button>
          ))}
        </span>
      </div>
      {chosen ? (
        <div className="space-y-1">
          <textarea
            aria-label={`Feedback comment on this ${target}`}
            className="block w-full rounded-md px-2 py-1 text-xs ring-1 ring-inset ring-zinc-300"
            rows={2}
            maxLength={FEEDBACK_COMMENT_MAX}
            placeholder="What was right or wrong? (optional)"
            value={text}
            onChange={(e) => setComment(e.target.value)}
          />
          <div className="flex gap-2">
            <Button type="button" className="px-2 py-1 text-xs" disabled={pending} onClick={() => save(chosen)}>
              {mine ? "Update feedback" : "Send feedback"}
            </Button>
            {mine ? (
              <Button type="button" variant="ghost" className="px-2 py-1 text-xs" disabled={pending} onClick={remove}>
                Remove my feedback
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      ) : null}
      {items.length && can(me.data?.user.role, "agents:edit") ? (
        // A run someone judged is a candidate test case: it goes to a dataset with its recorded tool results.
        <AddToDatasetDialog runIds={[runId]} label="Add this run to a dataset" />
      ) : null}
      {items.some((i) => i.rating && i.comment) ? (
        <ul data-testid="feedback-comments" className="space-y-1">
          {items
            .filter((i) => i.rating && i.comment)
            .map((i) => (
              <li key={i.id} className="break-words">
                {i.rating ? <ThumbIcon rating={i.rating} /> : null} <span className="text-zinc-500">{i.user.email}:</span> {i.comment}
              </li>
            ))}
        </ul>
      ) : null}
      <ScoresPanel runId={runId} spanId={spanId} target={target} items={items} scores={scores} knownKeys={knownKeys} onChanged={done} />
    </section>
  );
}
