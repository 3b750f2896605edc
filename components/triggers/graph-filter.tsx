// `/schedules?graph=<name>` and `/webhooks?graph=<name>` (a graph's Triggers
// tab links there): the list of one graph, the graph a new trigger starts with,
// and `&new=1` to open the form at once. A name that is not a graph name is
// ignored (the whole list), never an error page.
import Link from "@/components/ui/link";
import { AGENT_NAME_PATTERN } from "@/lib/agents/schemas";

export interface TriggersPreset {
  graph: string;
  /** Open the "new" form (builders and admins; viewers get the list). */
  open: boolean;
}

/** The preset a page's search parameters ask for, or null. */
export function triggersPreset(searchParams: Record<string, string | string[] | undefined>): TriggersPreset | null {
  const graph = searchParams.graph;
  if (typeof graph !== "string" || !AGENT_NAME_PATTERN.test(graph)) return null;
  return { graph, open: searchParams.new === "1" };
}

/** "Showing the schedules of triage · Show all": what the list is filtered by, and the way back. */
export function GraphFilterNote({ graph, allHref, what }: { graph: string; allHref: string; what: string }) {
  return (
    <p className="mb-4 text-sm text-zinc-600" data-testid="graph-filter-note">
      Showing the {what} of{" "}
      <Link className="font-medium text-indigo-600 hover:underline" href={`/agents/${encodeURIComponent(graph)}/triggers`}>
        {graph}
      </Link>{" "}
      ·{" "}
      <Link className="text-indigo-600 hover:underline" href={allHref}>
        Show all
      </Link>
    </p>
  );
}
