import { Badge } from "@/components/ui/badge";
import type { RunStatus } from "@/lib/contract/types";

const TONES: Record<RunStatus, "neutral" | "success" | "warning" | "danger" | "info"> = {
  pending: "neutral",
  thinking: "info",
  awaiting_tool: "info",
  awaiting_approval: "warning",
  completed: "success",
  failed: "danger",
  cancelled: "neutral",
};

export function StatusBadge({ status }: { status: RunStatus }) {
  return (
    <Badge tone={TONES[status] ?? "neutral"} className="whitespace-nowrap">
      <span data-testid="run-status">{status.replace("_", " ")}</span>
    </Badge>
  );
}
