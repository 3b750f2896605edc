import type { SpanKind } from "@/lib/contract/types";
import type { TraceSpanView } from "@/lib/runs/schemas";
import { followUpDeadline, followUpWindowText } from "@/lib/runs/run-time";
import { formatDateTime } from "@/lib/format/figures";

/** Bar colour by span kind; errors and running spans override it (see barClass). */
export const KIND_COLORS: Record<SpanKind, string> = {
  run: "bg-zinc-400",
  iteration: "bg-slate-300",
  inference: "bg-violet-500",
  tool: "bg-sky-500",
  sub_agent: "bg-teal-500",
  approval_wait: "bg-amber-300",
  timer: "bg-slate-200",
  routing: "bg-fuchsia-500",
  handoff: "bg-orange-400",
  plan: "bg-emerald-500",
  guardrail: "bg-rose-400",
};

export const KIND_LABELS: Record<SpanKind, string> = {
  run: "run",
  iteration: "iteration",
  inference: "model call",
  tool: "tool call",
  sub_agent: "sub-agent",
  approval_wait: "approval wait",
  timer: "timer",
  routing: "routing decision",
  handoff: "handoff",
  plan: "plan",
  guardrail: "guardrail check",
};

export function barClass(kind: SpanKind, status: string): string {
  if (status === "error") return "bg-red-500";
  if (status === "running") return `${KIND_COLORS[kind]} animate-pulse`;
  return KIND_COLORS[kind];
}

const WAIT_ENDINGS: Record<string, string> = {
  fired: "timer fired",
  message: "ended by a message",
  decision: "ended by the decision",
  cancelled: "cancelled while waiting",
  error: "ended by an error",
};

/** For a durable wait (timer or approval): how it ended, or its deadline while it runs; null for other spans. */
export function waitNote(span: Pick<TraceSpanView, "kind" | "endMs" | "attributes">): string | null {
  if (span.kind !== "timer" && span.kind !== "approval_wait") return null;
  const ended = span.attributes?.ended;
  if (span.endMs !== null) return typeof ended === "string" ? (WAIT_ENDINGS[ended] ?? ended) : null;
  const window = followUpDeadline(span.attributes);
  if (window) return followUpWindowText(window);
  const deadline = span.attributes?.deadline;
  return typeof deadline === "string" && !Number.isNaN(Date.parse(deadline)) ? `until ${formatDateTime(deadline)}` : null;
}
