"use client";
import { useQuery } from "@tanstack/react-query";
import type { InboxSnapshot } from "@/lib/inbox/schemas";

export const INBOX_QUERY_KEY = ["inbox"] as const;
export const INBOX_COUNT_QUERY_KEY = ["inbox", "count"] as const;

async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `the inbox could not load (${response.status})`);
  }
  return (await response.json()) as T;
}

/** The pending approvals, refreshed about every second while the tab is visible. */
export function useInbox(initial?: InboxSnapshot) {
  return useQuery({
    queryKey: INBOX_QUERY_KEY,
    queryFn: async (): Promise<InboxSnapshot> => {
      const body = await fetchJson<{ approvals: InboxSnapshot["items"]; serverTime: string }>("/api/approvals");
      return { items: body.approvals, serverTime: body.serverTime };
    },
    refetchInterval: 1_000,
    staleTime: 0,
    ...(initial ? { initialData: initial } : {}),
  });
}

/** How many approvals wait, for the navigation badge (cheap: visibility only). */
export function useInboxCount() {
  return useQuery({
    queryKey: INBOX_COUNT_QUERY_KEY,
    queryFn: async () => (await fetchJson<{ count: number }>("/api/approvals/count")).count,
    refetchInterval: 2_000,
    staleTime: 0,
  });
}
