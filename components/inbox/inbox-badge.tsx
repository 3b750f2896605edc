"use client";
import { plural } from "@/lib/text/plural";
import { useInboxCount } from "./use-inbox";

/** The live number of pending approvals, next to "Inbox" in the navigation. */
export function InboxBadge() {
  const { data } = useInboxCount();
  if (!data) return null;
  return (
    <span data-testid="inbox-badge" aria-label={plural(data, "pending approval")} className="ml-auto rounded-full bg-amber-500 px-2 py-0.5 text-xs font-semibold text-white">
      {data}
    </span>
  );
}
