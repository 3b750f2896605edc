// Browser-safe contract of feedback (issue 27 §5, issue 37 §2): a thumbs up or
// down, or a named score (a key with a number or a category), with an optional
// comment, by one signed-in user on a run or on one of its spans. One schema for
// every door (server action, route, TypeScript client).
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

/** A named score's key: like Langfuse score names and LangSmith feedback keys ("accuracy", "tone.politeness"). */
export const SCORE_KEY_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;
const scoreKeySchema = z.string().regex(SCORE_KEY_PATTERN, "name the score with 1–64 lowercase letters, digits, _ . or -, starting with a letter");
/** The longest category a score may take. */
export const SCORE_CATEGORY_MAX = 100;

const commentSchema = z
  .string()
  .trim()
  .max(FEEDBACK_COMMENT_MAX, `keep the comment within ${FEEDBACK_COMMENT_MAX.toLocaleString("en")} characters`)
  .optional()
  .transform((c) => (c ? c : undefined));

/**
 * Feedback on a run or a span: the thumbs (`rating`), or a named score (`key` with a
 * `value` number or a `category`), each with an optional comment. One per user, target
 * and key: setting again changes it.
 */
export const setFeedbackSchema = z
  .strictObject({
    runId: runIdSchema,
    spanId: spanIdSchema.optional(),
    rating: z.enum(FEEDBACK_RATINGS, { error: 'rate "up" or "down"' }).optional(),
    key: scoreKeySchema.optional(),
    value: z.number({ error: "give the score a number" }).finite().min(-1e9).max(1e9).optional(),
    category: z.string().trim().min(1, "give the category a name").max(SCORE_CATEGORY_MAX, `keep the category within ${SCORE_CATEGORY_MAX} characters`).optional(),
    comment: commentSchema,
  })
  .superRefine((input, ctx) => {
    const score = input.key !== undefined || input.value !== undefined || input.category !== undefined;
    if (input.rating !== undefined) {
      if (score) ctx.addIssue({ code: "custom", path: ["rating"], message: "give the thumbs (rating) or a named score (key with value or category), not both" });
      return;
    }
    if (input.key === undefined) {
      ctx.addIssue({ code: "custom", path: [score ? "key" : "rating"], message: score ? "name the score (key)" : 'rate "up" or "down", or give a named score (key with value or category)' });
      return;
    }
    if ((input.value === undefined) === (input.category === undefined)) ctx.addIssue({ code: "custom", path: ["value"], message: "give the score either a number (value) or a category, one of the two" });
  });
export type SetFeedbackInput = z.input<typeof setFeedbackSchema>;

/** What setting feedback answers: the row as stored. */
export interface FeedbackSet {
  id: string;
  /** null for a named score. */
  rating: FeedbackRating | null;
  /** null for the thumbs. */
  key: string | null;
  value: number | null;
  category: string | null;
  comment: string | null;
  changed: boolean;
}

/** `key` absent: your thumbs; a key: your score of that name. */
export const removeFeedbackSchema = z.strictObject({ runId: runIdSchema, spanId: spanIdSchema.optional(), key: scoreKeySchema.optional() });
export const listFeedbackSchema = z.strictObject({ runId: runIdSchema });

/** One person's feedback on a run (spanId null) or a span of it: the thumbs or a named score. */
export interface FeedbackItem {
  id: string;
  runId: string;
  spanId: string | null;
  /** The thumbs; null for a named score. */
  rating: FeedbackRating | null;
  /** A named score's key; null for the thumbs. */
  key: string | null;
  /** A named score's number, or… */
  value: number | null;
  /** …its category. */
  category: string | null;
  comment: string | null;
  user: { id: string; email: string };
  /** Given by the caller (they may change or remove it). */
  mine: boolean;
  updatedAt: string;
}

/** Counts of one target's thumbs. */
export interface FeedbackCounts {
  up: number;
  down: number;
}

/** One named score on one target, over everyone who gave it. */
export interface ScoreSummary {
  key: string;
  count: number;
  /** The mean of the numbers given (null when every one is a category). */
  mean: number | null;
  /** How often each category was given. */
  categories: Record<string, number>;
}

/** The feedback of one target (run or span), newest first, with its thumbs counts and its scores by key. */
export function feedbackOf(items: readonly FeedbackItem[], runId: string, spanId: string | null): { items: FeedbackItem[]; counts: FeedbackCounts; scores: ScoreSummary[] } {
  const mine = items.filter((i) => i.runId === runId && i.spanId === spanId);
  const scores = new Map<string, { count: number; sum: number; numbers: number; categories: Record<string, number> }>();
  for (const item of mine) {
    if (item.key === null) continue;
    const score = scores.get(item.key) ?? { count: 0, sum: 0, numbers: 0, categories: {} };
    score.count++;
    if (item.value !== null) {
      score.sum += item.value;
      score.numbers++;
    }
    if (item.category !== null) score.categories[item.category] = (score.categories[item.category] ?? 0) + 1;
    scores.set(item.key, score);
  }
  return {
    items: mine,
    counts: { up: mine.filter((i) => i.rating === "up").length, down: mine.filter((i) => i.rating === "down").length },
    scores: [...scores]
      .map(([key, s]) => ({ key, count: s.count, mean: s.numbers ? s.sum / s.numbers : null, categories: s.categories }))
      .sort((a, b) => a.key.localeCompare(b.key)),
  };
}

/** A score as one reads it: "0.8", "polite". */
export function scoreText(item: Pick<FeedbackItem, "value" | "category">): string {
  return item.value !== null ? String(item.value) : (item.category ?? "");
}
