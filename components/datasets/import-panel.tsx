"use client";
// Import a CSV or JSONL file (chosen or pasted) into a dataset, or into a new
// one. It posts to POST /api/datasets/import (not a server action): a file may
// be larger than an action's body limit, and the route answers 413 beyond its cap.
import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import type { DatasetChange, ImportFormat, ImportProblem } from "@/lib/datasets/schemas";
import { MAX_IMPORT_BYTES } from "@/lib/datasets/schemas";

interface Refusal {
  message: string;
  issues?: { path: string; message: string }[];
}

export function ImportPanel({ datasetId }: { datasetId?: string }) {
  const router = useRouter();
  const [format, setFormat] = useState<ImportFormat>("csv");
  const [content, setContent] = useState("");
  const [fileName, setFileName] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [skipInvalid, setSkipInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [done, setDone] = useState<(DatasetChange & { skipped: ImportProblem[] }) | null>(null);

  async function pick(file: File | undefined) {
    if (!file) return;
    setFileName(file.name);
    if (/\.jsonl?$/i.test(file.name)) setFormat("jsonl");
    else if (/\.csv$/i.test(file.name)) setFormat("csv");
    if (file.size > MAX_IMPORT_BYTES) {
      setRefusal({ message: `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; the import takes files up to ${MAX_IMPORT_BYTES / 1024 / 1024} MB` });
      return;
    }
    setContent(await file.text());
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setRefusal(null);
    setDone(null);
    const target = datasetId ? { datasetId } : { newDataset: { name: name.trim() } };
    try {
      const response = await fetch("/api/datasets/import", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...target, format, content, ...(skipInvalid ? { skipInvalid } : {}) }) });
      const body = (await response.json().catch(() => null)) as { error?: Refusal } | (DatasetChange & { skipped: ImportProblem[] }) | null;
      if (!response.ok || !body || "error" in body) {
        setRefusal(body && "error" in body && body.error ? body.error : { message: `The import failed (${response.status})` });
        return;
      }
      setDone(body as DatasetChange & { skipped: ImportProblem[] });
      if (datasetId) router.refresh();
      else router.push(`/datasets/${(body as DatasetChange).datasetId}`);
    } catch {
      setRefusal({ message: "Could not reach the server" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm" aria-label="Import items" data-testid="import-panel">
      <h2 className="font-semibold text-zinc-900">Import CSV or JSONL</h2>
      <p className="text-xs text-zinc-600">
        Columns (CSV) or keys (JSONL): <code>task</code> (required), <code>context</code> (JSON), <code>expected_output</code>, <code>expected_output_json</code>, <code>expected_trajectory</code> (JSON list of {"{ tool, arguments }"}), <code>tags</code> (commas or JSON). An exported JSONL file imports back as it was. Up to {MAX_IMPORT_BYTES / 1024 / 1024} MB and 100,000 items.
      </p>
      {datasetId ? null : (
        <div>
          <label htmlFor="import-dataset-name" className="mb-1 block font-medium text-zinc-700">
            New dataset name
          </label>
          <Input id="import-dataset-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
        </div>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="import-format" className="mb-1 block font-medium text-zinc-700">
            Format
          </label>
          <Select id="import-format" value={format} onChange={(e) => setFormat(e.target.value === "jsonl" ? "jsonl" : "csv")} className="w-28">
            <option value="csv">CSV</option>
            <option value="jsonl">JSONL</option>
          </Select>
        </div>
        <div>
          <label htmlFor="import-file" className="mb-1 block font-medium text-zinc-700">
            File
          </label>
          <input id="import-file" type="file" accept=".csv,.jsonl,.json,text/csv,application/x-ndjson" onChange={(e) => void pick(e.target.files?.[0])} className="text-xs" />
        </div>
      </div>
      <div>
        <label htmlFor="import-content" className="mb-1 block font-medium text-zinc-700">
          {fileName ? `Content of ${fileName}` : "Or paste the content"}
        </label>
        <textarea id="import-content" value={content} onChange={(e) => setContent(e.target.value)} rows={6} className="block w-full rounded-md px-3 py-2 font-mono text-xs ring-1 ring-inset ring-zinc-300" placeholder={'task,context,expected_output\n"Where is order 7?","{""orderId"":7}",Shipped'} />
      </div>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={skipInvalid} onChange={(e) => setSkipInvalid(e.target.checked)} />
        <span>Import the valid lines and skip the broken ones</span>
      </label>
      {refusal ? (
        <div role="alert" data-testid="import-problems" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          <p>{refusal.message}</p>
          {refusal.issues?.length ? (
            <ul className="mt-1 list-disc pl-5 text-xs">
              {refusal.issues.map((issue) => (
                <li key={`${issue.path}:${issue.message}`}>{issue.message}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {done ? (
        <p role="status" data-testid="import-result" className="text-emerald-800">
          Imported {done.added} item{done.added === 1 ? "" : "s"} as version {done.version} ({done.itemCount} items){done.skipped.length ? `; skipped ${done.skipped.length} broken line${done.skipped.length === 1 ? "" : "s"}` : ""}.
        </p>
      ) : null}
      <Button type="submit" disabled={busy || !content.trim() || (!datasetId && !name.trim())} data-testid="import-submit">
        {busy ? "Importing…" : "Import"}
      </Button>
    </form>
  );
}
