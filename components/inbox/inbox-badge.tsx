"use client";
import { useInboxCount } from "./use-inbox";

/** The live number of pending approvals, next to "Inbox" in the navigation. */
export function InboxBadge() {
  const { data } = useInboxCount();
  if (!data) return null;
  return (
    <span data-testid="inbox-badge" aria-label={`${data} pending approvals`} className="ml-auto rounded-full bg-amber-500 px-2 py-0.5 text-xs font-semibold text-white">
      {data}
    </span>
  );
}
