import { describe, expect, it } from "vitest";
import { feedbackOf, setFeedbackSchema, type FeedbackItem } from "./schemas";

const run = "triage-0d5f2a8e-1b7c-4c1e-9a55-3f0e8e4b2a10";

describe("feedback input: the thumbs or a named score, one door", () => {
  it("takes the thumbs, or a key with a number or a category", () => {
    expect(setFeedbackSchema.safeParse({ runId: run, rating: "up" }).success).toBe(true);
    expect(setFeedbackSchema.safeParse({ runId: run, key: "accuracy", value: 0.8, comment: "close" }).success).toBe(true);
    expect(setFeedbackSchema.safeParse({ runId: run, spanId: "s3", key: "tone.politeness", category: "polite" }).success).toBe(true);
  });

  it("refuses both, neither, a score with both or no value, a bad key and unknown keys, naming the field", () => {
    const issues = (input: Record<string, unknown>) => {
      const parsed = setFeedbackSchema.safeParse({ runId: run, ...input });
      return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(issues({ rating: "up", key: "accuracy", value: 1 })).toEqual(["rating: give the thumbs (rating) or a named score (key with value or category), not both"]);
    expect(issues({})).toEqual(['rating: rate "up" or "down", or give a named score (key with value or category)']);
    expect(issues({ value: 1 })).toEqual(["key: name the score (key)"]);
    expect(issues({ key: "accuracy" })).toEqual(["value: give the score either a number (value) or a category, one of the two"]);
    expect(issues({ key: "accuracy", value: 1, category: "good" })).toEqual(["value: give the score either a number (value) or a category, one of the two"]);
    expect(issues({ key: "Accuracy!", value: 1 })[0]).toMatch(/^key: name the score with 1–64 lowercase letters/);
    expect(issues({ key: "accuracy", value: "0.8" })[0]).toMatch(/^value: /);
    expect(issues({ rating: "up", score: 1 })[0]).toMatch(/score/);
  });
});

describe("feedbackOf", () => {
  const item = (over: Partial<FeedbackItem>): FeedbackItem => ({ id: Math.random().toString(), runId: run, spanId: null, rating: null, key: null, value: null, category: null, comment: null, user: { id: "u", email: "u@zap.local" }, mine: false, updatedAt: "", ...over });

  it("counts the thumbs apart from the scores, and sums each score up by key", () => {
    const { counts, scores } = feedbackOf(
      [
        item({ rating: "up" }),
        item({ rating: "down" }),
        item({ key: "accuracy", value: 1 }),
        item({ key: "accuracy", value: 0.5 }),
        item({ key: "tone", category: "polite" }),
        item({ key: "tone", category: "polite" }),
        item({ key: "tone", category: "curt" }),
        item({ key: "accuracy", value: 0, spanId: "s1" }),
      ],
      run,
      null,
    );
    expect(counts).toEqual({ up: 1, down: 1 });
    expect(scores).toEqual([
      { key: "accuracy", count: 2, mean: 0.75, categories: {} },
      { key: "tone", count: 3, mean: null, categories: { polite: 2, curt: 1 } },
    ]);
  });
});
