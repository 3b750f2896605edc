"use client";
// One page of a dataset version's items. On the newest version a builder edits
// an item (task, context, expected answer as JSON, tags) or removes it; either
// makes the next version.
import { useState, type FormEvent } from "react";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { updateDatasetItemAction } from "@/lib/actions/update-dataset-item";
import { removeDatasetItemsAction } from "@/lib/actions/remove-dataset-items";
import type { DatasetItem } from "@/lib/datasets/schemas";
import type { ErrorBody } from "@/lib/errors";

const describe = (error: ErrorBody) => (error.issues?.length ? `${error.message}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : error.message);

/** The expectations of an item in a few words. */
export function expectedSummary(item: DatasetItem): string[] {
  const e = item.expected;
  const parts: string[] = [];
  if (e.output) parts.push(`answer: ${e.output}`);
  if (e.outputData !== undefined) parts.push(`typed: ${JSON.stringify(e.outputData)}`);
  if (e.trajectory?.length) parts.push(`calls: ${e.trajectory.map((c) => c.tool).join(" → ")}`);
  if (e.routing) parts.push(`routes to ${e.routing.target}${e.routing.fallback ? " (fallback)" : ""}`);
  if (e.plan) parts.push(`plan: ${e.plan.nodeCount ?? "?"} nodes${e.plan.cards?.length ? ` (${e.plan.cards.join(", ")})` : ""}${e.plan.outcome ? `, ${e.plan.outcome}` : ""}`);
  for (const n of e.negative ?? []) parts.push(`must not: ${n.tool} ${JSON.stringify(n.arguments)} — ${n.reason}`);
  return parts;
}

function parseJson(text: string, what: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, message: `${what} is not JSON` };
  }
}

function EditItem({ datasetId, item, onDone }: { datasetId: string; item: DatasetItem; onDone: () => void }) {
  const router = useRouter();
  const [task, setTask] = useState(item.input.task);
  const [context, setContext] = useState(JSON.stringify(item.input.context, null, 2));
  const [expected, setExpected] = useState(JSON.stringify(item.expected, null, 2));
  const [tags, setTags] = useState(item.tags.join(", "));
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsedContext = parseJson(context, "Context");
    const parsedExpected = parseJson(expected, "Expected");
    if (!parsedContext.ok) return setError(parsedContext.message);
    if (!parsedExpected.ok) return setError(parsedExpected.message);
    const result = await updateDatasetItemAction({
      datasetId,
      itemId: item.id,
      input: { task, context: parsedContext.value },
      expected: parsedExpected.value,
      tags: tags
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
    });
    if (!result.ok) return setError(describe(result.error));
    onDone();
    router.refresh();
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-2 p-2" aria-label={`Edit item ${item.position}`}>
      <label className="block text-xs font-medium text-zinc-700">
        Task
        <textarea value={task} onChange={(e) => setTask(e.target.value)} rows={2} className="mt-1 block w-full rounded-md px-2 py-1 text-sm ring-1 ring-inset ring-zinc-300" />
      </label>
      <div className="grid gap-2 md:grid-cols-2">
        <label className="block text-xs font-medium text-zinc-700">
          Context (JSON)
          <textarea value={context} onChange={(e) => setContext(e.target.value)} rows={5} className="mt-1 block w-full rounded-md px-2 py-1 font-mono text-xs ring-1 ring-inset ring-zinc-300" />
        </label>
        <label className="block text-xs font-medium text-zinc-700">
          Expected (JSON: output, outputData, trajectory, routing, plan, negative)
          <textarea value={expected} onChange={(e) => setExpected(e.target.value)} rows={5} className="mt-1 block w-full rounded-md px-2 py-1 font-mono text-xs ring-1 ring-inset ring-zinc-300" />
        </label>
      </div>
      <label className="block text-xs font-medium text-zinc-700">
        Tags (comma-separated)
        <Input value={tags} onChange={(e) => setTags(e.target.value)} className="mt-1" />
      </label>
      {error ? (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit">Save as new version</Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

export function ItemsTable({ datasetId, items, editable }: { datasetId: string; items: DatasetItem[]; editable: boolean }) {
  const router = useRouter();
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function remove(item: DatasetItem) {
    if (!window.confirm(`Remove item ${item.position} (“${item.input.task.slice(0, 60)}”)? The next version will not have it; older versions keep it.`)) return;
    const result = await removeDatasetItemsAction({ datasetId, itemIds: [item.id] });
    if (!result.ok) return setError(describe(result.error));
    setError(null);
    router.refresh();
  }

  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      {error ? (
        <p role="alert" className="px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <table className="w-full text-left text-sm" data-testid="dataset-items">
        <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th className="px-3 py-2">#</th>
            <th className="px-3">Task</th>
            <th className="px-3">Expected</th>
            <th className="px-3">Tape</th>
            <th className="px-3">Tags</th>
            <th className="px-3">Source</th>
            {editable ? <th className="px-3" /> : null}
          </tr>
        </thead>
        <tbody>
          {items.map((item) =>
            editing === item.id ? (
              <tr key={item.id} className="border-t border-zinc-200">
                <td colSpan={editable ? 7 : 6}>
                  <EditItem datasetId={datasetId} item={item} onDone={() => setEditing(null)} />
                </td>
              </tr>
            ) : (
              <tr key={item.id} className="border-t border-zinc-200 align-top" data-testid="dataset-item">
                <td className="px-3 py-2 text-xs text-zinc-500">{item.position}</td>
                <td className="max-w-sm px-3 py-2">
                  <p className="whitespace-pre-wrap break-words">{item.input.task}</p>
                  {Object.keys(item.input.context).length ? <p className="truncate font-mono text-xs text-zinc-500">{JSON.stringify(item.input.context)}</p> : null}
                  {item.input.images?.length ? <p className="text-xs text-zinc-500">{item.input.images.length} image(s)</p> : null}
                </td>
                <td className="max-w-md px-3 py-2 text-xs text-zinc-700">
                  {expectedSummary(item).map((line) => (
                    <p key={line} className="truncate" title={line}>
                      {line}
                    </p>
                  ))}
                </td>
                <td className="px-3 py-2 text-xs text-zinc-600">{item.tape.length ? `${item.tape.length} result${item.tape.length === 1 ? "" : "s"}` : "—"}</td>
                <td className="px-3 py-2 text-xs">{item.tags.join(", ") || "—"}</td>
                <td className="px-3 py-2 text-xs">
                  {item.source.runId ? (
                    <Link href={`/runs/${encodeURIComponent(item.source.runId)}`} className="text-indigo-700 hover:underline">
                      {item.source.approvalId ? "approval in run" : "run"}
                    </Link>
                  ) : item.source.import ? (
                    `${item.source.import.toUpperCase()} import`
                  ) : (
                    "—"
                  )}
                </td>
                {editable ? (
                  <td className="whitespace-nowrap px-3 py-2 text-xs">
                    <button type="button" className="text-indigo-700 hover:underline" onClick={() => setEditing(item.id)}>
                      Edit
                    </button>
                    <button type="button" className="ml-3 text-red-700 hover:underline" onClick={() => void remove(item)}>
                      Remove
                    </button>
                  </td>
                ) : null}
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}
