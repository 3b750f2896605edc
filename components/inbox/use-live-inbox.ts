"use client";
// The inbox, live: an approval asked or decided, or a run's pending count
// moving (GET /api/approvals/feed), reads the inbox again at once instead of
// on the next second's poll; the navigation badge's count with it.
import { useQueryClient } from "@tanstack/react-query";
import { useCoalescedRefetch, useLiveFeed, type LiveFeed } from "@/components/runs/use-live-feed";
import { INBOX_COUNT_QUERY_KEY, INBOX_QUERY_KEY } from "./use-inbox";

/**
 * Keeps the inbox query current from the approvals feed; returns the path in use (poll only when "polling")
 * and, once the feed ended because the viewer's access did, why (the inbox then stops updating).
 */
export function useLiveInbox(): LiveFeed {
  const queryClient = useQueryClient();
  const reload = useCoalescedRefetch(INBOX_QUERY_KEY);
  return useLiveFeed("/api/approvals/feed", {
    onReload: reload,
    onChange: () => {
      reload();
      void queryClient.invalidateQueries({ queryKey: INBOX_COUNT_QUERY_KEY, exact: true });
    },
  });
}
