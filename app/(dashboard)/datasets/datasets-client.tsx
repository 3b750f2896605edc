"use client";
// The datasets list: name, items and version of each, and (for builders) a new
// empty dataset or one imported from a file.
import { useState, type FormEvent } from "react";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { EmptyState } from "@/components/ui/empty-state";
import { DateTime } from "@/components/ui/date-time";
import { ImportPanel } from "@/components/datasets/import-panel";
import { createDatasetAction } from "@/lib/actions/create-dataset";
import type { DatasetSummary } from "@/lib/datasets/schemas";

function CreateForm() {
  const router = useRouter();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const result = await createDatasetAction({ name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) });
    setBusy(false);
    if (!result.ok) return setError(result.error.issues?.length ? result.error.issues.map((i) => i.message).join("; ") : result.error.message);
    router.push(`/datasets/${result.data.id}`);
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm" aria-label="New dataset">
      <h2 className="font-semibold text-zinc-900">New empty dataset</h2>
      <div>
        <label htmlFor="dataset-name" className="mb-1 block font-medium text-zinc-700">
          Name
        </label>
        <Input id="dataset-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      </div>
      <div>
        <label htmlFor="dataset-description" className="mb-1 block font-medium text-zinc-700">
          Description (optional)
        </label>
        <Input id="dataset-description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
      </div>
      {error ? (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={busy || !name.trim()}>
        Create
      </Button>
    </form>
  );
}

export function DatasetsPage({ datasets, canEdit, showArchived }: { datasets: DatasetSummary[]; canEdit: boolean; showArchived: boolean }) {
  return (
    <div className="space-y-6">
      {datasets.length === 0 ? (
        <EmptyState title="No datasets yet">Select finished runs in the runs list and choose “Add to dataset”, or import a CSV / JSONL file{canEdit ? " below" : ""}.</EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
          <table className="w-full text-left text-sm" data-testid="datasets-list">
            <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
              <tr>
                <th className="px-3 py-2">Dataset</th>
                <th className="px-3">Items</th>
                <th className="px-3">Version</th>
                <th className="px-3">Changed</th>
              </tr>
            </thead>
            <tbody>
              {datasets.map((d) => (
                <tr key={d.id} className="border-t border-zinc-200" data-testid="dataset-row">
                  <td className="px-3 py-2">
                    <Link href={`/datasets/${d.id}`} className="font-medium text-indigo-700 hover:underline">
                      {d.name}
                    </Link>
                    {d.archivedAt ? <span className="ml-2 text-xs text-zinc-500">archived</span> : null}
                    {d.description ? <p className="max-w-md truncate text-xs text-zinc-500">{d.description}</p> : null}
                  </td>
                  <td className="px-3">{d.itemCount.toLocaleString()}</td>
                  <td className="px-3">{d.latestVersion ? `v${d.latestVersion}` : "—"}</td>
                  <td className="px-3 text-xs text-zinc-600"><DateTime value={d.updatedAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Link href={showArchived ? "/datasets" : "/datasets?archived=1"} className="text-sm text-zinc-600 hover:underline">
        {showArchived ? "Hide archived datasets" : "Show archived datasets"}
      </Link>
      {canEdit ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <CreateForm />
          <ImportPanel />
        </div>
      ) : null}
    </div>
  );
}
