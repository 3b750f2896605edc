"use client";
// Versions: who saved what and when, how many runs each had, which is the
// default and which are drafts (saved from the playground, not the default
// until promoted); compare any two (or a version and the draft), promote a
// draft, restore one as the newest, export, import; the version labels and their
// splits (version-labels.tsx).
import { useState } from "react";
import type { VersionSummary } from "@/lib/agents/designer-schemas";
import type { FieldChange } from "@/lib/agents/graph-diff";
import type { GraphIssue } from "@/lib/agents/validate";
import { plural } from "@/lib/text/plural";
import { DateTime } from "@/components/ui/date-time";
import { useVersionLabels, VersionLabelChips, VersionLabelsSection } from "./version-labels";

export type DiffSide = number | "draft";

function short(value: unknown): string {
  if (value === undefined) return "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

export function FieldChanges({ changes }: { changes: readonly FieldChange[] }) {
  if (changes.length === 0) return <p className="text-xs text-zinc-500">No differences.</p>;
  return (
    <ul className="space-y-1 text-xs" data-testid="diff-fields">
      {changes.map((c) => (
        <li key={c.path}>
          <code className="text-zinc-700">{c.path}</code>: <span className="text-red-700 line-through">{short(c.before)}</span> → <span className="text-emerald-700">{short(c.after)}</span>
        </li>
      ))}
    </ul>
  );
}

export function HistoryPanel(props: {
  agent: string;
  versions: readonly VersionSummary[];
  baseVersion: number;
  canEdit: boolean;
  busy: boolean;
  onCompare: (from: DiffSide, to: DiffSide) => void;
  onRestore: (version: number) => void;
  onPromote: (version: number) => void;
  onImport: (text: string) => void;
  onExportDraft: () => void;
  importErrors: readonly GraphIssue[];
}) {
  const { agent, versions, baseVersion, canEdit, busy, onCompare, onRestore, onPromote, onImport, onExportDraft, importErrors } = props;
  const current = versions.find((v) => !v.draft)?.version ?? 0;
  const labels = useVersionLabels(agent);
  const [from, setFrom] = useState<string>(String(versions[1]?.version ?? versions[0]?.version ?? 1));
  const [to, setTo] = useState<string>("draft");
  const [text, setText] = useState("");
  const side = (v: string): DiffSide => (v === "draft" ? "draft" : Number(v));
  const options = [{ value: "draft", label: "your draft" }, ...versions.map((v) => ({ value: String(v.version), label: `v${v.version}` }))];

  return (
    <div className="space-y-4 text-xs" data-testid="history-panel">
      <section>
        <div className="mb-1 flex items-center justify-between">
          <h2 className="text-sm font-semibold text-zinc-900">Versions</h2>
          <button type="button" className="rounded px-2 py-1 ring-1 ring-zinc-300" onClick={onExportDraft}>
            Export draft
          </button>
        </div>
        <ol className="divide-y divide-zinc-100 rounded border border-zinc-200">
          {versions.map((v) => (
            <li key={v.version} className="p-2" data-testid={`version-${v.version}`}>
              <div className="flex items-center justify-between">
                <span className="font-semibold">
                  v{v.version}
                  {v.isDefault ? (
                    <span data-testid="version-default" className="ml-1 rounded bg-emerald-100 px-1 font-normal text-emerald-800">
                      default
                    </span>
                  ) : null}
                  {v.draft ? (
                    <span data-testid="version-draft" className="ml-1 rounded bg-amber-100 px-1 font-normal text-amber-900" title="Saved as a draft: runs only when chosen by number, not the default until promoted">
                      draft
                    </span>
                  ) : null}
                  {v.promotedAt ? <span className="ml-1 font-normal text-zinc-500">promoted <DateTime value={v.promotedAt} /></span> : null}
                  {v.version === baseVersion ? <span className="ml-1 font-normal text-indigo-700">(editing)</span> : null}
                  <VersionLabelChips labels={labels} version={v.version} />
                </span>
                <span className="text-zinc-500">{plural(v.runs, "run")}</span>
              </div>
              <p className="text-zinc-600">
                {v.author ?? "seed"} · <DateTime value={v.createdAt} />
              </p>
              {v.message ? <p className="text-zinc-800">{v.message}</p> : null}
              <div className="mt-1 flex gap-3">
                <a className="text-indigo-700 hover:underline" href={`/api/agents/${encodeURIComponent(agent)}/versions/${v.version}`} download>
                  Export v{v.version}
                </a>
                {canEdit && v.draft && v.version > current ? (
                  <button type="button" disabled={busy} className="text-indigo-700 hover:underline" onClick={() => onPromote(v.version)}>
                    Promote v{v.version}
                  </button>
                ) : null}
                {canEdit && v.version !== versions[0]?.version ? (
                  <button type="button" disabled={busy} className="text-indigo-700 hover:underline" onClick={() => onRestore(v.version)}>
                    Restore v{v.version}
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      </section>
      <VersionLabelsSection agent={agent} labels={labels} versions={versions.map((v) => v.version)} canEdit={canEdit} />
      <section className="space-y-1">
        <h2 className="text-sm font-semibold text-zinc-900">Compare</h2>
        <div className="flex items-center gap-1">
          <select aria-label="Compare from" value={from} onChange={(e) => setFrom(e.target.value)} className="rounded ring-1 ring-zinc-300">
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          →
          <select aria-label="Compare to" value={to} onChange={(e) => setTo(e.target.value)} className="rounded ring-1 ring-zinc-300">
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <button type="button" className="rounded bg-zinc-800 px-2 py-1 text-white" onClick={() => onCompare(side(from), side(to))}>
            Show diff
          </button>
        </div>
      </section>
      {canEdit ? (
        <section className="space-y-1">
          <h2 className="text-sm font-semibold text-zinc-900">Import JSON into the draft</h2>
          <input type="file" aria-label="Import file" accept="application/json,.json" onChange={async (e) => { const file = e.target.files?.[0]; if (file) onImport(await file.text()); }} />
          <textarea aria-label="JSON to import" rows={3} value={text} onChange={(e) => setText(e.target.value)} className="block w-full rounded p-1 font-mono ring-1 ring-zinc-300" />
          <button type="button" className="rounded px-2 py-1 ring-1 ring-zinc-300" onClick={() => onImport(text)} disabled={!text}>
            Import
          </button>
          {importErrors.length ? (
            <ul role="alert" className="text-red-700" data-testid="import-errors">
              {importErrors.map((e) => (
                <li key={`${e.path}${e.message}`}>
                  <code>{e.path}</code>: {e.message}
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
