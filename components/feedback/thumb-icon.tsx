// Thumbs as inline SVG, not emoji: an emoji renders as an empty box where the
// browser has no emoji font (issue 37 §2). Paths after Lucide's thumbs-up and
// thumbs-down (ISC licence); no icon library is a dependency, and two icons do
// not need one. Decorative: the button or count beside it says the words.
import type { FeedbackRating } from "@/lib/feedback/schemas";

const PATHS: Record<FeedbackRating, string[]> = {
  up: ["M7 10v12", "M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z"],
  down: ["M17 14V2", "M9 18.12 10 14H4.17a2 2 0 0 1-1.92-2.56l2.33-8A2 2 0 0 1 6.5 2H20a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-2.76a2 2 0 0 0-1.79 1.11L12 22a3.13 3.13 0 0 1-3-3.88Z"],
};

export function ThumbIcon({ rating, className = "h-3.5 w-3.5" }: { rating: FeedbackRating; className?: string }) {
  return (
    <svg data-testid={`thumb-${rating}-icon`} aria-hidden="true" focusable="false" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" className={`inline-block shrink-0 ${className}`}>
      {PATHS[rating].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
