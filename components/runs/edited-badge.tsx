// The mark of a step someone wrote rather than recorded (a fork's edited tool
// result or model output), alike in the trace, the conversation and the
// compare page: who wrote it, and when on hover.
import type { EditMark } from "@/lib/contract/types";
import { editTitle } from "@/lib/runs/edit-marks";
import { cn } from "@/components/ui/cn";

export function EditedBadge({ mark, testId, className }: { mark: EditMark; testId: string; className?: string }) {
  return (
    <span data-testid={testId} className={cn("rounded bg-amber-100 px-1.5 py-0.5 text-xs font-normal text-amber-900", className)} title={editTitle(mark)}>
      edited by {mark.by}
    </span>
  );
}
