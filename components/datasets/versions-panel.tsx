"use client";
// A dataset's versions (note, item count, when) with links to read each, and
// the diff of two versions: items added, removed and changed.
import { useState } from "react";
import Link from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import { DateTime } from "@/components/ui/date-time";
import { diffDatasetVersionsAction } from "@/lib/actions/dataset-reads";
import type { DatasetDiff, DatasetItem, DatasetVersionSummary } from "@/lib/datasets/schemas";
import { expectedSummary } from "./items-table";

function ItemLine({ item }: { item: DatasetItem }) {
  return (
    <li className="truncate" title={item.input.task}>
      #{item.position} {item.input.task}
      <span className="text-zinc-500"> · {expectedSummary(item).join(" · ") || "no expectations"}</span>
    </li>
  );
}

export function VersionsPanel({ datasetId, versions, shown }: { datasetId: string; versions: DatasetVersionSummary[]; shown: number }) {
  const newest = versions[0]?.number ?? 0;
  const [from, setFrom] = useState(Math.max(1, newest - 1));
  const [to, setTo] = useState(newest);
  const [diff, setDiff] = useState<DatasetDiff | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function compare() {
    const result = await diffDatasetVersionsAction({ datasetId, from, to });
    if (!result.ok) return setError(result.error.message);
    setError(null);
    setDiff(result.data);
  }

  if (versions.length === 0) return <p className="text-sm text-zinc-500">No versions yet: add runs, approvals or a file.</p>;
  return (
    <div className="space-y-3 text-sm">
      <ol className="max-h-64 space-y-1 overflow-y-auto" data-testid="dataset-versions">
        {versions.map((v) => (
          <li key={v.number} className="flex items-baseline gap-2">
            <Link href={`/datasets/${datasetId}?version=${v.number}`} aria-current={v.number === shown ? "page" : undefined} className={v.number === shown ? "font-semibold text-zinc-900" : "text-indigo-700 hover:underline"}>
              v{v.number}
            </Link>
            <span className="min-w-0 flex-1 truncate" title={v.note}>
              {v.note || "—"}
            </span>
            <span className="whitespace-nowrap text-xs text-zinc-500">
              {v.itemCount.toLocaleString()} items · <DateTime value={v.createdAt} />
            </span>
          </li>
        ))}
      </ol>
      {versions.length > 1 ? (
        <div className="space-y-2 border-t border-zinc-100 pt-3">
          <div className="flex flex-wrap items-end gap-2">
            <label className="text-xs text-zinc-600">
              From
              <Select aria-label="Diff from version" value={from} onChange={(e) => setFrom(Number(e.target.value))} className="w-24">
                {versions.map((v) => (
                  <option key={v.number} value={v.number}>
                    v{v.number}
                  </option>
                ))}
              </Select>
            </label>
            <label className="text-xs text-zinc-600">
              To
              <Select aria-label="Diff to version" value={to} onChange={(e) => setTo(Number(e.target.value))} className="w-24">
                {versions.map((v) => (
                  <option key={v.number} value={v.number}>
                    v{v.number}
                  </option>
                ))}
              </Select>
            </label>
            <Button type="button" variant="secondary" onClick={() => void compare()}>
              Compare versions
            </Button>
          </div>
          {error ? (
            <p role="alert" className="text-red-700">
              {error}
            </p>
          ) : null}
          {diff ? (
            <div data-testid="dataset-diff" className="space-y-2 text-xs">
              <p className="font-medium">
                v{diff.from} → v{diff.to}: {diff.added.length} added, {diff.removed.length} removed, {diff.changed.length} changed
              </p>
              {diff.added.length ? (
                <ul className="text-emerald-800">
                  {diff.added.map((item) => (
                    <ItemLine key={item.id} item={item} />
                  ))}
                </ul>
              ) : null}
              {diff.removed.length ? (
                <ul className="text-red-800 line-through">
                  {diff.removed.map((item) => (
                    <ItemLine key={item.id} item={item} />
                  ))}
                </ul>
              ) : null}
              {diff.changed.map(({ before, after }) => (
                <div key={after.id} className="rounded border border-amber-200 bg-amber-50 p-2">
                  <p className="text-red-800">
                    − {before.input.task} · {expectedSummary(before).join(" · ")}
                  </p>
                  <p className="text-emerald-800">
                    + {after.input.task} · {expectedSummary(after).join(" · ")}
                  </p>
                </div>
              ))}
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
