"use client";
// Moments on the page, in the product's one format (lib/format/figures.ts) and
// the reader's locale and time zone. Those are the browser's, known only once
// the page runs there: the server's HTML and the hydrating render hold the
// instant in `dateTime` without text, and the browser's first render writes
// it, so the text is never the server's zone, nor a hydration mismatch.
import { useSyncExternalStore } from "react";
import { formatDateTime, formatDateTimeRange } from "@/lib/format/figures";

const noSubscription = () => () => undefined;

/** False while rendering on the server and hydrating, true afterwards: the reader's locale and zone are known only then. */
export function useInBrowser(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

function isoOf(value: string | number | Date): string | undefined {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** "Nov 29, 2026, 01:44:54" in the reader's locale and zone. */
export function DateTime({ value, className, testId }: { value: string | number | Date; className?: string; testId?: string }) {
  const inBrowser = useInBrowser();
  return (
    <time dateTime={isoOf(value)} className={className} data-testid={testId}>
      {inBrowser ? formatDateTime(value) : ""}
    </time>
  );
}

/** "Nov 29, 2026, 01:13:00 – 01:14:00": two moments, their shared date said once. */
export function DateTimeRange({ from, to, className, testId }: { from: string | number | Date; to: string | number | Date; className?: string; testId?: string }) {
  const inBrowser = useInBrowser();
  return (
    <span className={className} data-testid={testId}>
      {inBrowser ? formatDateTimeRange(from, to) : ""}
    </span>
  );
}
