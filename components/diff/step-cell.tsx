"use client";
// One side of an aligned row: the step's kind, place and fields; the fields
// that differ from the other side highlighted, their text diffed word by word.
import { memo } from "react";
import Link from "@/components/ui/link";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { EditedBadge } from "@/components/runs/edited-badge";
import { formatCost } from "@/lib/runs/pricing";
import { formatDuration } from "@/lib/format/figures";
import { inlineDiff, type TextPart } from "@/lib/runs/diff/text-diff";
import type { StepKind } from "@/lib/runs/diff/steps";
import type { StepView } from "@/lib/runs/diff/schemas";

export const KIND_LABELS: Record<StepKind, string> = {
  task: "Task",
  user_message: "User message",
  model_call: "Model call",
  tool_call: "Tool call",
  routing: "Routing",
  handoff: "Handoff",
  sub_agent_message: "Message to sub-agent",
  sub_agent_reply: "Sub-agent reply",
  plan_proposed: "Plan",
  plan_node: "Plan node",
  final: "Final",
};

/** How field names read as labels (the rest read as they are). */
const FIELD_LABELS: Record<string, string> = { toolCalls: "proposed tool calls", fallbackTaken: "fallback taken" };

/** The step's measured figures: tokens, cost of a model call, latency. */
function figures(step: StepView): string[] {
  const out: string[] = [];
  if (step.tokens) out.push(`${(step.tokens.inputTokens + step.tokens.outputTokens).toLocaleString("en-US")} tok`);
  if (step.kind === "model_call") out.push(formatCost(step.cost));
  if (step.latencyMs !== null) out.push(formatDuration(step.latencyMs));
  return out;
}

/** Which side the cell is on: A shows what B lost (removed), B what it gained (added). */
export type Side = "a" | "b";

function DiffText({ parts, side }: { parts: TextPart[]; side: Side }) {
  return (
    <>
      {parts.map((p, i) =>
        p.change === "same" ? (
          <span key={i}>{p.value}</span>
        ) : (p.change === "removed") === (side === "a") ? (
          <mark key={i} data-testid={side === "a" ? "diff-removed-text" : "diff-added-text"} className={side === "a" ? "bg-red-200 text-red-900 line-through decoration-red-400" : "bg-emerald-200 text-emerald-900"}>
            {p.value}
          </mark>
        ) : null,
      )}
    </>
  );
}

function FieldValue({ text, otherText, changed, side }: { text: string; otherText: string | undefined; changed: boolean; side: Side }) {
  const parts = changed && otherText !== undefined ? (side === "a" ? inlineDiff(text, otherText) : inlineDiff(otherText, text)) : null;
  return <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-words font-mono text-xs text-zinc-800">{parts ? <DiffText parts={parts} side={side} /> : text || <span className="text-zinc-400">(empty)</span>}</pre>;
}

export const StepCell = memo(function StepCell({ step, other, changed, side }: { step: StepView; other: StepView | null; changed: readonly string[]; side: Side }) {
  const changedSet = new Set(changed);
  return (
    <div data-testid={`diff-step-${side}`} className="min-w-0 space-y-1">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
        <span className="font-semibold text-zinc-900">{KIND_LABELS[step.kind]}</span>
        {step.name ? <span className="font-mono text-zinc-700">{step.name}</span> : null}
        <span className="text-zinc-500" title={step.path ? `place in the run tree: ${step.path}` : "the run itself"}>
          {step.agent}
          {step.path ? <span className="font-mono"> {step.path}</span> : null}
        </span>
        {step.replayed ? (
          <Badge tone="info" className="!py-0">
            <span data-testid="diff-replayed">replayed</span>
          </Badge>
        ) : null}
        {/* A fork's edited step: what the run read here was written by someone, not recorded or executed. */}
        {step.edited ? <EditedBadge mark={step.edited} testId="diff-edited" /> : null}
        {step.spanId ? (
          <Link className="text-indigo-600 hover:underline" href={`/runs/${encodeURIComponent(step.runId)}?span=${encodeURIComponent(step.spanId)}`}>
            trace
          </Link>
        ) : null}
        <span className="ml-auto whitespace-nowrap text-zinc-500">{figures(step).join(" · ")}</span>
      </div>
      <dl className="space-y-1">
        {Object.entries(step.fields).map(([name, text]) => (
          <div key={name} data-changed={changedSet.has(name) || undefined} className={cn("rounded px-1.5 py-1", changedSet.has(name) ? (side === "a" ? "bg-red-50 ring-1 ring-red-200" : "bg-emerald-50 ring-1 ring-emerald-200") : "bg-zinc-50")}>
            <dt className="text-[11px] uppercase tracking-wide text-zinc-500">{FIELD_LABELS[name] ?? name}</dt>
            <dd>
              <FieldValue text={text} otherText={other?.fields[name]} changed={changedSet.has(name)} side={side} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
});
