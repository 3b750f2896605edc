"use client";
// One dataset: its versions and their diff, a page of the shown version's
// items, export, and for builders on the newest version: edit or remove items,
// add from approvals, import a file, archive.
import { useState } from "react";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { ItemsTable } from "@/components/datasets/items-table";
import { VersionsPanel } from "@/components/datasets/versions-panel";
import { ApprovalsPanel } from "@/components/datasets/approvals-panel";
import { ImportPanel } from "@/components/datasets/import-panel";
import { archiveDatasetAction } from "@/lib/actions/archive-dataset";
import type { DatasetItemsPage, DatasetVersionSummary } from "@/lib/datasets/schemas";

export function DatasetPage({ page, versions, canEdit }: { page: DatasetItemsPage; versions: DatasetVersionSummary[]; canEdit: boolean }) {
  const router = useRouter();
  const { dataset, version } = page;
  const [error, setError] = useState<string | null>(null);
  const newest = version === dataset.latestVersion;
  const editable = canEdit && newest && !dataset.archivedAt;
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  const href = (p: number) => `/datasets/${dataset.id}?${new URLSearchParams({ ...(newest ? {} : { version: String(version) }), page: String(p) }).toString()}`;

  async function archive() {
    if (!window.confirm(`Archive ${dataset.name}? It stays readable and exportable, and can no longer change.`)) return;
    const result = await archiveDatasetAction({ datasetId: dataset.id });
    if (!result.ok) return setError(result.error.message);
    router.refresh();
  }

  return (
    <>
      <PageHeader
        title={dataset.name}
        description={`${dataset.description ? `${dataset.description} · ` : ""}${version ? `version ${version}${newest ? " (newest)" : ` of ${dataset.latestVersion}`}` : "no versions yet"} · ${page.total.toLocaleString()} items${dataset.archivedAt ? " · archived" : ""}`}
        actions={
          <div className="flex gap-2">
            {version ? (
              <a href={`/api/datasets/${dataset.id}/export?version=${version}`} download className="inline-flex items-center rounded-md px-3 py-2 text-sm font-medium ring-1 ring-inset ring-zinc-300 hover:bg-zinc-50">
                Export JSONL
              </a>
            ) : null}
            {canEdit && !dataset.archivedAt ? (
              <Button variant="ghost" onClick={() => void archive()}>
                Archive
              </Button>
            ) : null}
          </div>
        }
      />
      <div className="space-y-6">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {!newest ? (
          <Alert tone="info">
            You are reading version {version}; versions never change. <Link href={`/datasets/${dataset.id}`}>Read the newest (v{dataset.latestVersion})</Link> to edit items.
          </Alert>
        ) : null}
        <section className="rounded-lg border border-zinc-200 bg-white p-4">
          <h2 className="mb-2 text-sm font-semibold text-zinc-900">Versions</h2>
          <VersionsPanel datasetId={dataset.id} versions={versions} shown={version} />
        </section>
        <section className="space-y-2">
          <h2 className="text-sm font-semibold text-zinc-900">Items</h2>
          {page.total === 0 ? <p className="text-sm text-zinc-500">No items in this version.</p> : <ItemsTable datasetId={dataset.id} items={page.items} editable={editable} />}
          {pages > 1 ? (
            <div className="flex items-center gap-2 text-sm text-zinc-600">
              {page.page > 1 ? <Link href={href(page.page - 1)}>Previous</Link> : null}
              <span>
                page {page.page} of {pages}
              </span>
              {page.page < pages ? <Link href={href(page.page + 1)}>Next</Link> : null}
            </div>
          ) : null}
        </section>
        {editable || (canEdit && !dataset.archivedAt && dataset.latestVersion === 0) ? (
          <div className="grid gap-4 lg:grid-cols-2">
            <ApprovalsPanel datasetId={dataset.id} />
            <ImportPanel datasetId={dataset.id} />
          </div>
        ) : null}
      </div>
    </>
  );
}
