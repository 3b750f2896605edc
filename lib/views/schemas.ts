// Browser-safe contract of saved views: a user's named filters of the runs
// list, and the built-in "stuck or burning" view. One schema for every door
// (server action, route, TypeScript client). Server code lives in ./server.
import { z } from "zod";
import { runFiltersSchema, STUCK_DEFAULTS } from "../runs/schemas";
import { stuckDescription } from "../runs/stuck-words";

/** At most this many saved views per user. */
export const VIEWS_PER_USER = 50;

/** A view's filters: the runs list's, without paging; unknown keys are refused. At least one is set. */
export const savedViewFiltersSchema = runFiltersSchema
  .omit({ page: true, pageSize: true })
  .strict()
  // Only once the filters themselves are valid: an unknown key is its own one issue.
  .refine((filters) => Object.values(filters).some((v) => v !== undefined), { message: "choose at least one filter to save", when: (payload) => payload.issues.length === 0 });
export type SavedViewFilters = z.infer<typeof savedViewFiltersSchema>;

const viewName = z.string().trim().min(1, "name the view").max(60, "keep the name under 60 characters");
const viewId = z.string().regex(/^view_[A-Za-z0-9-]{8,64}$/, "not a saved view id");

export const createViewSchema = z.strictObject({ name: viewName, filters: savedViewFiltersSchema });
/** Rename a view or replace its filters (at least one of the two). */
export const updateViewSchema = z
  .strictObject({ id: viewId, name: viewName.optional(), filters: savedViewFiltersSchema.optional() })
  .refine((input) => input.name !== undefined || input.filters !== undefined, { message: "change the name or the filters", path: ["name"] });
export const deleteViewSchema = z.strictObject({ id: viewId });
export const listViewsSchema = z.strictObject({});

export interface SavedView {
  id: string;
  name: string;
  filters: SavedViewFilters;
  /** Built into the product: listed for everyone, not editable. */
  builtIn: boolean;
  /** What the view shows, in words (the built-in view states its thresholds). */
  description: string | null;
  updatedAt: string | null;
}

/** The built-in views, listed before the user's own. */
export const BUILT_IN_VIEWS: SavedView[] = [
  {
    id: "builtin-stuck-or-burning",
    name: "stuck or burning",
    filters: { view: "stuck", ...STUCK_DEFAULTS },
    builtIn: true,
    description: stuckDescription(STUCK_DEFAULTS),
    updatedAt: null,
  },
];

/** The runs list's query string for a view's filters. */
export function viewQuery(filters: SavedViewFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== undefined && value !== "") params.set(key, String(value));
  return params.toString();
}
