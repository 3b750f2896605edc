// Which columns the runs list shows. The run's own column is always there (and
// sticks to the left); the others are the user's choice, kept in this browser,
// and until chosen follow a default that fits a 1,280 px screen: Routed to only
// when a run on the page was routed (or the list is filtered by it), Started by
// only when the list is filtered by its starter.

export const RUN_COLUMNS = [
  { id: "status", label: "Status" },
  { id: "routedTo", label: "Routed to" },
  { id: "version", label: "Version" },
  { id: "startedBy", label: "Started by" },
  { id: "started", label: "Started" },
  { id: "duration", label: "Duration" },
  { id: "usage", label: "Tokens · cost" },
  { id: "score", label: "Score" },
] as const;
export type RunColumn = (typeof RUN_COLUMNS)[number]["id"];

/** The user's explicit choices: a column shown (true) or hidden (false); absent follows the default. */
export type ColumnChoices = Partial<Record<RunColumn, boolean>>;

/** Where the choices are kept (localStorage). */
export const COLUMNS_STORAGE_KEY = "zap.runs.columns";

const IDS = new Set<string>(RUN_COLUMNS.map((c) => c.id));

/** The stored choices; anything unreadable or unknown is ignored (a stale key never hides a column for good). */
export function parseColumnChoices(stored: string | null): ColumnChoices {
  if (!stored) return {};
  try {
    const value: unknown = JSON.parse(stored);
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).filter(([key, on]) => IDS.has(key) && typeof on === "boolean")) as ColumnChoices;
  } catch {
    return {};
  }
}

/** What the default depends on: whether a run on the page was routed, and the list's filters. */
export interface ColumnContext {
  anyRouted: boolean;
  /** Whether a run on the page has an online evaluation score (absent: none). */
  anyScored?: boolean;
  filters: ReadonlySet<string>;
}

function shownByDefault(column: RunColumn, context: ColumnContext): boolean {
  if (column === "routedTo") return context.anyRouted || context.filters.has("routedTo") || context.filters.has("reason");
  if (column === "startedBy") return context.filters.has("startedBy");
  if (column === "score") return Boolean(context.anyScored) || ["evaluator", "scoreBelow", "scoreAtLeast"].some((key) => context.filters.has(key));
  return true;
}

/** The columns shown, in the table's order. */
export function visibleColumns(choices: ColumnChoices, context: ColumnContext): RunColumn[] {
  return RUN_COLUMNS.map((c) => c.id).filter((id) => choices[id] ?? shownByDefault(id, context));
}
