// Browser-safe contract of feedback (issue 27 §5): a thumbs up or down, with an
// optional comment, by one signed-in user on a run or on one of its spans. One
// schema for every door (server action, route, TypeScript client).
import { z } from "zod";
import { runIdSchema } from "../contract/schemas";

/** The longest comment kept with a rating. */
export const FEEDBACK_COMMENT_MAX = 2_000;

export const FEEDBACK_RATINGS = ["up", "down"] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** The runs list's feedback filter: trees with a thumbs up, a thumbs down, any feedback, or none. */
export const FEEDBACK_FILTERS = ["up", "down", "any", "none"] as const;
export type FeedbackFilter = (typeof FEEDBACK_FILTERS)[number];

/** A span of the run (its ids are short, `s12`); absent means the run itself. */
const spanIdSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,120}$/, "not a span id");

export const setFeedbackSchema = z.strictObject({
  runId: runIdSchema,
  spanId: spanIdSchema.optional(),
  rating: z.enum(FEEDBACK_RATINGS, { error: 'rate "up" or "down"' }),
  comment: z
    .string()
    .trim()
    .max(FEEDBACK_COMMENT_MAX, `keep the comment within ${FEEDBACK_COMMENT_MAX.toLocaleString("en")} characters`)
    .optional()
    .transform((c) => (c ? c : undefined)),
});
export type SetFeedbackInput = z.input<typeof setFeedbackSchema>;

export const removeFeedbackSchema = z.strictObject({ runId: runIdSchema, spanId: spanIdSchema.optional() });
export const listFeedbackSchema = z.strictObject({ runId: runIdSchema });

/** One person's feedback on a run (spanId null) or a span of it. */
export interface FeedbackItem {
  id: string;
  runId: string;
  spanId: string | null;
  rating: FeedbackRating;
  comment: string | null;
  user: { id: string; email: string };
  /** Given by the caller (they may change or remove it). */
  mine: boolean;
  updatedAt: string;
}

/** Counts of one target's feedback. */
export interface FeedbackCounts {
  up: number;
  down: number;
}

/** The feedback of one target (run or span), newest first, with its counts. */
export function feedbackOf(items: readonly FeedbackItem[], runId: string, spanId: string | null): { items: FeedbackItem[]; counts: FeedbackCounts } {
  const mine = items.filter((i) => i.runId === runId && i.spanId === spanId);
  return { items: mine, counts: { up: mine.filter((i) => i.rating === "up").length, down: mine.filter((i) => i.rating === "down").length } };
}
