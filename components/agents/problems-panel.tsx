"use client";
// Every error and warning of the draft; a click selects the node it concerns.
import type { AgentGraph } from "@/lib/agents/schemas";
import type { GraphIssue } from "@/lib/agents/validate";
import { nodesForIssue } from "@/lib/agents/graph-issues";
import { plural } from "@/lib/text/plural";

export function ProblemsPanel({ graph, errors, warnings, validatedInMs, onSelect }: { graph: AgentGraph; errors: readonly GraphIssue[]; warnings: readonly GraphIssue[]; validatedInMs: number; onSelect: (nodeIds: string[]) => void }) {
  const rows = [...errors.map((issue) => ({ issue, level: "error" as const })), ...warnings.map((issue) => ({ issue, level: "warning" as const }))];
  return (
    <section aria-label="Problems" className="max-h-48 overflow-auto border-t border-zinc-200 bg-white text-xs">
      <h2 className="sticky top-0 flex gap-1 bg-white px-3 py-1 font-semibold text-zinc-700">
        Problems <span className="text-red-700">{plural(errors.length, "error")}</span> · <span className="text-amber-700">{plural(warnings.length, "warning")}</span>
        {/* Live validation's cost, where its result shows (the toolbar keeps its one row). */}
        <span className="ml-auto font-normal tabular-nums text-zinc-400" data-testid="validation-time">
          validated in {validatedInMs.toFixed(1)} ms
        </span>
      </h2>
      {rows.length === 0 ? <p className="px-3 pb-2 text-emerald-700">No problems: the graph can be saved.</p> : null}
      <ul>
        {rows.map(({ issue, level }, i) => (
          <li key={`${level}${i}`}>
            <button type="button" className="flex w-full gap-2 px-3 py-1 text-left hover:bg-zinc-50" onClick={() => onSelect(nodesForIssue(graph, issue))} data-testid="problem">
              <span className={level === "error" ? "font-semibold text-red-700" : "font-semibold text-amber-700"}>{level}</span>
              <code className="text-zinc-500">{issue.path}</code>
              <span className="text-zinc-800">{issue.message}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
