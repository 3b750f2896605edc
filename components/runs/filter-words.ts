// The runs list's filters in words, for an empty result: "No runs match
// “order 4417” · tool lookup_order" echoes what the user asked for, so they
// see why nothing matched and can clear it. Paging and order are no filters.
import { formatDateTime } from "@/lib/format/figures";
import { RUN_TRIGGER_LABELS, RUN_TRIGGERS, type RunTrigger } from "@/lib/runs/triggers";

/** Query keys that order or page the list without narrowing it. */
const NOT_FILTERS = new Set(["page", "pageSize", "sort", "order"]);

const LABELS: Record<string, string> = {
  tool: "tool",
  model: "model",
  status: "status",
  reason: "failure",
  planOutcome: "plan outcome",
  routedTo: "routed to",
  graph: "graph",
  version: "version",
  startedBy: "started by",
  feedback: "feedback",
  scheduleId: "schedule",
  webhook: "webhook",
  label: "label",
  evaluator: "evaluator",
  scoreBelow: "score below",
  scoreAtLeast: "score at least",
  stuckMinutes: "quiet for (min)",
  burnPerMinute: "spending over ($/min)",
};

/** "By a schedule" → "by a schedule" (the rest as written: "API", "CLI"). */
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

const WORD_VALUES = new Set(["status", "reason", "planOutcome"]);

/** Whether the list is narrowed by anything (an empty workspace is told apart from an empty result). */
export function hasFilters(params: URLSearchParams): boolean {
  return [...params].some(([key, value]) => value !== "" && !NOT_FILTERS.has(key));
}

/** The query without its filters: what "Clear filters" leaves (the order stays). */
export function withoutFilters(params: URLSearchParams): URLSearchParams {
  return new URLSearchParams([...params].filter(([key]) => NOT_FILTERS.has(key) && key !== "page"));
}

/** Each filter in words, the search first and quoted. */
export function filterWords(params: URLSearchParams): string[] {
  const words: string[] = [];
  const q = params.get("q");
  if (q) words.push(`“${q}”`);
  for (const [key, value] of params) {
    if (value === "" || key === "q" || NOT_FILTERS.has(key)) continue;
    if (key === "awaitingApproval") words.push("awaiting approval");
    else if (key === "experiments") words.push("experiment runs included");
    // A trigger is said as the overview's split says it ("by a schedule"); an unknown one as typed.
    else if (key === "trigger") words.push((RUN_TRIGGERS as readonly string[]).includes(value) ? `started ${lowerFirst(RUN_TRIGGER_LABELS[value as RunTrigger])}` : `trigger ${value}`);
    else if (key === "view") words.push(value === "stuck" ? "stuck or burning" : `view ${value}`);
    else if (key === "from" || key === "to") words.push(`${key} ${Number.isNaN(Date.parse(value)) ? value : formatDateTime(value)}`);
    // Status, failure and plan outcome are words with underscores (awaiting_approval); names and ids are said as typed.
    else words.push(`${LABELS[key] ?? key} ${WORD_VALUES.has(key) ? value.replaceAll("_", " ") : value}`);
  }
  return words;
}
