// A schedule's last firing and a webhook delivery, as one badge each wherever
// they appear (the /schedules and /webhooks pages, a graph's Triggers tab): one
// tone per outcome word, so "refused" is red on every page (STYLE.md §19).
import type { ScheduleOutcome } from "@/lib/schedules/schemas";
import type { DeliveryOutcome } from "@/lib/webhooks/schemas";
import { Badge } from "@/components/ui/badge";

export function ScheduleOutcomeBadge({ outcome }: { outcome: ScheduleOutcome }) {
  const tone = outcome === "completed" ? "success" : outcome === "failed" || outcome === "refused" ? "danger" : "neutral";
  return <Badge tone={tone}>{outcome}</Badge>;
}

export function DeliveryOutcomeBadge({ outcome }: { outcome: DeliveryOutcome }) {
  return <Badge tone={outcome === "started" ? "success" : outcome === "refused" ? "danger" : "neutral"}>{outcome}</Badge>;
}
