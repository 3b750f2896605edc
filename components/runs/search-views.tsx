"use client";
// Saved views above the runs list: the built-in "stuck or burning" view (its
// thresholds said in words and editable) and the user's own, each a link to the
// list with its filters; "Save view" names the list's current filters.
import { useState, useTransition, type FormEvent } from "react";
import Link from "@/components/ui/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { getJson } from "@/lib/http/client";
import { viewQuery, type SavedView } from "@/lib/views/schemas";
import { createViewAction } from "@/lib/actions/create-view";
import { deleteViewAction } from "@/lib/actions/delete-view";
import { stuckDescription } from "@/lib/runs/stuck-words";
import { StuckThresholds, thresholdsOf } from "./stuck-thresholds";

/** The list's filters as a view keeps them: everything but paging. */
function currentFilters(params: URLSearchParams): Record<string, string> {
  return Object.fromEntries([...params].filter(([key, value]) => value !== "" && key !== "page" && key !== "pageSize"));
}

/** The "stuck or burning" view, whatever thresholds its URL carries. */
const isBuiltInStuck = (view: SavedView, params: URLSearchParams) => view.filters.view === "stuck" && params.get("view") === "stuck";

const sameQuery = (a: string, b: string) => [...new URLSearchParams(a)].sort().join("&") === [...new URLSearchParams(b)].sort().join("&");

export function SavedViews({ params }: { params: URLSearchParams }) {
  const queryClient = useQueryClient();
  const views = useQuery({ queryKey: ["views"], queryFn: () => getJson<{ views: SavedView[] }>("/api/views", { what: "saved views" }) });
  const [naming, setNaming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const filters = currentFilters(params);
  const current = new URLSearchParams(filters).toString();

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    startTransition(async () => {
      const result = await createViewAction({ name, filters });
      if (!result.ok) {
        setError([result.error.message, ...(result.error.issues ?? []).map((i) => `${i.path}: ${i.message}`)].join(" — "));
        return;
      }
      setError(null);
      setNaming(false);
      await queryClient.invalidateQueries({ queryKey: ["views"] });
    });
  }

  function remove(view: SavedView) {
    startTransition(async () => {
      const result = await deleteViewAction({ id: view.id });
      setError(result.ok ? null : result.error.message);
      await queryClient.invalidateQueries({ queryKey: ["views"] });
    });
  }

  return (
    <nav aria-label="Saved views" className="space-y-2 text-sm">
      <ul className="flex flex-wrap items-center gap-2">
        {views.data?.views.map((view) => {
          const query = viewQuery(view.filters);
          // The built-in view stays the one shown while its thresholds are changed below.
          const active = sameQuery(query, current) || (view.builtIn && isBuiltInStuck(view, params));
          return (
            <li key={view.id} className="flex items-center gap-1" data-testid="saved-view">
              <Link
                href={`/runs?${query}`}
                aria-current={active ? "page" : undefined}
                title={view.description ?? query}
                className={`rounded-full border px-3 py-1 ${active ? "border-indigo-600 bg-indigo-50 text-indigo-800" : "border-zinc-300 bg-white text-zinc-700 hover:border-zinc-400"}`}
              >
                {view.name}
              </Link>
              {view.builtIn ? null : (
                <button type="button" aria-label={`Delete view ${view.name}`} disabled={pending} onClick={() => remove(view)} className="text-xs text-zinc-400 hover:text-red-700">
                  ✕
                </button>
              )}
            </li>
          );
        })}
        <li>
          {naming ? (
            <form onSubmit={save} className="flex items-center gap-2" aria-label="Save view">
              <Input name="name" aria-label="View name" placeholder="name this view" required maxLength={60} autoFocus className="w-44" />
              <Button type="submit" disabled={pending}>
                Save
              </Button>
              <Button type="button" variant="secondary" onClick={() => setNaming(false)}>
                Cancel
              </Button>
            </form>
          ) : (
            <Button type="button" variant="secondary" disabled={Object.keys(filters).length === 0} title={Object.keys(filters).length ? "Save these filters as a view" : "Choose a filter first"} onClick={() => setNaming(true)}>
              Save view
            </Button>
          )}
        </li>
      </ul>
      {params.get("view") === "stuck" ? (
        <div className="flex flex-wrap items-end gap-4">
          <p className="text-xs text-zinc-600" data-testid="view-description">
            {stuckDescription(thresholdsOf(params))}
          </p>
          <StuckThresholds params={params} />
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </nav>
  );
}
