"use client";
// "Add to dataset" for chosen runs (the runs list's selection, a feedback): one
// item per finished run, into an existing dataset or a new one, as its next
// version. Each item keeps the run's recorded tool results as its tape. The
// dataset is preselected only when it is the caller's own last choice (the one
// they last changed); otherwise nothing is, so one click never puts runs into a
// dataset somebody else was filling (issue 37 §2).
import { useState, type FormEvent } from "react";
import Link from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { addRunsToDatasetAction } from "@/lib/actions/add-runs-to-dataset";
import { listDatasetsAction } from "@/lib/actions/dataset-reads";
import type { DatasetChange, DatasetSummary } from "@/lib/datasets/schemas";
import type { ErrorBody } from "@/lib/errors";

const NEW = "__new__";
/** Nothing chosen yet: "Add" stays disabled until the user picks a dataset or names a new one. */
const NONE = "";

function describe(error: ErrorBody): string {
  return error.issues?.length ? `${error.message}: ${error.issues.map((i) => i.message).join("; ")}` : error.message;
}

export function AddToDatasetDialog({ runIds, label = "Add to dataset" }: { runIds: string[]; label?: string }) {
  const [open, setOpen] = useState(false);
  const [datasets, setDatasets] = useState<DatasetSummary[] | null>(null);
  const [choice, setChoice] = useState(NONE);
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ change: DatasetChange; name: string } | null>(null);

  async function toggle() {
    const next = !open;
    setOpen(next);
    setError(null);
    setDone(null);
    if (!next) return;
    const result = await listDatasetsAction({});
    if (!result.ok) return setError(describe(result.error));
    setDatasets(result.data.datasets);
    // The caller's own last dataset, unless they already chose here; with no datasets at all, a new one is the only choice.
    if (choice === NONE) setChoice(result.data.yourLast ?? (result.data.datasets.length === 0 ? NEW : NONE));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const target = choice === NEW ? { newDataset: { name: name.trim() } } : { datasetId: choice };
    const result = await addRunsToDatasetAction({ ...target, runIds, ...(note.trim() ? { note: note.trim() } : {}) });
    setBusy(false);
    if (!result.ok) return setError(describe(result.error));
    setDone({ change: result.data, name: choice === NEW ? name.trim() : (datasets?.find((d) => d.id === choice)?.name ?? "the dataset") });
  }

  return (
    <div className="relative inline-block">
      <Button type="button" variant="secondary" onClick={() => void toggle()} disabled={runIds.length === 0} aria-expanded={open} data-testid="add-to-dataset">
        {label}
        {runIds.length > 1 ? ` (${runIds.length})` : ""}
      </Button>
      {open ? (
        <div role="dialog" aria-label="Add to dataset" data-testid="add-to-dataset-dialog" className="absolute left-0 z-30 mt-1 w-[24rem] max-w-[90vw] space-y-3 rounded-md border border-zinc-200 bg-white p-3 text-sm shadow-lg">
          {done ? (
            <div className="space-y-2" data-testid="add-to-dataset-result">
              <p>
                Added {done.change.added} item{done.change.added === 1 ? "" : "s"} to <strong>{done.name}</strong> (version {done.change.version}, {done.change.itemCount} items).
              </p>
              <div className="flex gap-2">
                <Link href={`/datasets/${done.change.datasetId}`} className="font-medium text-indigo-700 hover:underline">
                  Open the dataset
                </Link>
                <button type="button" className="text-zinc-500 hover:underline" onClick={() => setOpen(false)}>
                  Close
                </button>
              </div>
            </div>
          ) : (
            <form onSubmit={(e) => void submit(e)} className="space-y-3">
              <p className="text-zinc-600">
                {runIds.length} run{runIds.length === 1 ? "" : "s"}: each becomes an item with its task, answer, tool calls and recorded tool results.
              </p>
              <div>
                <label htmlFor="dataset-choice" className="mb-1 block font-medium text-zinc-700">
                  Dataset
                </label>
                <Select id="dataset-choice" value={choice} onChange={(e) => setChoice(e.target.value)} disabled={datasets === null}>
                  {choice === NONE ? <option value={NONE}>Choose a dataset…</option> : null}
                  {(datasets ?? []).map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.name} ({d.itemCount} items, v{d.latestVersion})
                    </option>
                  ))}
                  <option value={NEW}>New dataset…</option>
                </Select>
              </div>
              {choice === NEW ? (
                <div>
                  <label htmlFor="new-dataset-name" className="mb-1 block font-medium text-zinc-700">
                    New dataset name
                  </label>
                  <Input id="new-dataset-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. refunds-regressions" required maxLength={100} />
                </div>
              ) : null}
              <div>
                <label htmlFor="dataset-note" className="mb-1 block font-medium text-zinc-700">
                  Version note (optional)
                </label>
                <Input id="dataset-note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} />
              </div>
              {error ? (
                <p role="alert" className="text-red-700">
                  {error}
                </p>
              ) : null}
              <div className="flex justify-end gap-2">
                <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
                  Cancel
                </Button>
                <Button type="submit" disabled={busy || choice === NONE || (choice === NEW && !name.trim())} data-testid="add-to-dataset-submit">
                  {busy ? "Adding…" : "Add"}
                </Button>
              </div>
            </form>
          )}
        </div>
      ) : null}
    </div>
  );
}
