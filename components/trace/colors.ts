import type { SpanKind } from "@/lib/engine/types";

/** Bar colour by span kind; errors and running spans override it (see barClass). */
export const KIND_COLORS: Record<SpanKind, string> = {
  run: "bg-zinc-400",
  iteration: "bg-slate-300",
  inference: "bg-violet-500",
  tool: "bg-sky-500",
  sub_agent: "bg-teal-500",
  approval_wait: "bg-amber-300",
};

export const KIND_LABELS: Record<SpanKind, string> = {
  run: "run",
  iteration: "iteration",
  inference: "model call",
  tool: "tool call",
  sub_agent: "sub-agent",
  approval_wait: "approval wait",
};

export function barClass(kind: SpanKind, status: string): string {
  if (status === "error") return "bg-red-500";
  if (status === "running") return `${KIND_COLORS[kind]} animate-pulse`;
  return KIND_COLORS[kind];
}
