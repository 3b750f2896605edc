"use client";
// One output of a model call, for the side-by-side comparison: the text, the
// tool calls it proposed (never executed here), tokens, cost and latency.
import type { PlaygroundOutput } from "@/lib/playground/schemas";
import { formatCost } from "@/lib/runs/pricing";
import { formatDuration } from "@/lib/format/figures";

export function OutputCard({ title, output, kind }: { title: string; output: PlaygroundOutput; kind: "original" | "attempt" }) {
  return (
    <article aria-label={title} data-testid="playground-output" data-kind={kind} className="flex min-w-0 flex-col gap-2 rounded-lg border border-zinc-200 bg-white p-3 text-sm">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold text-zinc-900">{title}</h3>
        <span className="font-mono text-xs text-zinc-500">{output.model}</span>
      </header>
      {output.content ? (
        <p data-testid="output-content" className="whitespace-pre-wrap break-words">
          {output.content}
        </p>
      ) : (
        <p className="text-xs text-zinc-500">(no text)</p>
      )}
      {output.toolCalls.length ? (
        <div data-testid="proposed-tool-calls" className="space-y-1">
          <p className="text-xs font-medium text-amber-800">Proposed tool calls (not executed)</p>
          {output.toolCalls.map((call) => (
            <pre key={call.id} className="overflow-x-auto rounded bg-zinc-50 p-2 font-mono text-xs">
              {call.name} {call.arguments}
            </pre>
          ))}
        </div>
      ) : null}
      <dl data-testid="output-usage" className="mt-auto grid grid-cols-[auto_1fr] gap-x-3 text-xs text-zinc-600">
        <dt>tokens</dt>
        <dd data-testid="output-tokens">
          {output.usage.inputTokens.toLocaleString("en-US")} in · {output.usage.outputTokens.toLocaleString("en-US")} out
        </dd>
        <dt>cost</dt>
        <dd>{formatCost(output.costUsd)}</dd>
        {output.latencyMs !== null ? (
          <>
            <dt>latency</dt>
            <dd>{formatDuration(output.latencyMs)}</dd>
          </>
        ) : null}
      </dl>
    </article>
  );
}
