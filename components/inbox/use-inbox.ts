"use client";
import { useQuery } from "@tanstack/react-query";
import type { InboxSnapshot } from "@/lib/inbox/schemas";
import { getJson } from "@/lib/http/client";

export const INBOX_QUERY_KEY = ["inbox"] as const;
export const INBOX_COUNT_QUERY_KEY = ["inbox", "count"] as const;


/** The pending approvals, refreshed about every second while the tab is visible, unless `live` (a feed refreshes them: use-live-inbox.ts). */
export function useInbox(initial?: InboxSnapshot, options: { live?: boolean } = {}) {
  return useQuery({
    queryKey: INBOX_QUERY_KEY,
    queryFn: async (): Promise<InboxSnapshot> => {
      const body = await getJson<{ approvals: InboxSnapshot["items"]; serverTime: string }>("/api/approvals", { what: "the inbox" });
      return { items: body.approvals, serverTime: body.serverTime };
    },
    refetchInterval: options.live ? false : 1_000,
    staleTime: 0,
    ...(initial ? { initialData: initial } : {}),
  });
}

/** How many approvals wait, for the navigation badge (cheap: visibility only). */
export function useInboxCount() {
  return useQuery({
    queryKey: INBOX_COUNT_QUERY_KEY,
    queryFn: async () => (await getJson<{ count: number }>("/api/approvals/count", { what: "the inbox count" })).count,
    refetchInterval: 2_000,
    staleTime: 0,
  });
}
