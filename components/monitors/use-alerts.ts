"use client";
import { useQuery } from "@tanstack/react-query";
import type { AlertView } from "@/lib/monitors/schemas";
import { getJson } from "@/lib/http/client";

export const FIRING_ALERTS_QUERY_KEY = ["monitors", "alerts", "firing"] as const;

/**
 * The alerts firing now, refreshed every few seconds (the evaluator ticks once a minute by default). `initial` is
 * what the server read for the first HTML: a banner that appeared only after the page's first fetch pushed the
 * page down under the reader's pointer (a click meant for an overview tile landed beside it).
 */
export function useFiringAlerts(initial?: { alerts: AlertView[]; readAt: number }) {
  return useQuery({
    queryKey: FIRING_ALERTS_QUERY_KEY,
    queryFn: async () => (await getJson<{ alerts: AlertView[] }>("/api/monitors/alerts?state=firing", { what: "the firing alerts" })).alerts,
    refetchInterval: 5_000,
    staleTime: 0,
    ...(initial ? { initialData: initial.alerts, initialDataUpdatedAt: initial.readAt } : {}),
  });
}
