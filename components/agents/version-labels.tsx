"use client";
// Version labels in the designer's history panel (lib/labels): which version
// each label names (and its traffic split), chips on the versions they name, and
// for builders a form to point a label at a version with or without a split. A
// protected label (production unless an admin says otherwise) is not moved
// here: the change becomes a request an approver decides in the inbox.
import { useState, type FormEvent } from "react";
import Link from "@/components/ui/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson } from "@/lib/http/client";
import type { LabelList, LabelView } from "@/lib/labels/schemas";
import { removeLabelAction, setLabelAction } from "@/lib/actions/version-labels";

const labelsKey = (agent: string) => ["version-labels", agent] as const;

/** The graph's labels, refreshed every 15 s (a request may be approved meanwhile). */
export function useVersionLabels(agent: string): LabelView[] {
  const query = useQuery({ queryKey: labelsKey(agent), queryFn: () => getJson<LabelList>(`/api/agents/${encodeURIComponent(agent)}/labels`, { what: "labels" }), refetchInterval: 15_000 });
  return query.data?.labels ?? [];
}

function splitText(label: LabelView): string {
  const split = label.split;
  if (!split || split.percent <= 0) return "";
  return `${split.percent} % to v${split.version} ${split.sticky === "context" ? `by ${split.contextKey ?? "?"}` : "per conversation"}`;
}

/** The labels naming this version (and the splits sending a share to it), as chips beside its number. */
export function VersionLabelChips({ labels, version }: { labels: readonly LabelView[]; version: number }) {
  const own = labels.filter((l) => l.version === version);
  const splits = labels.filter((l) => l.split && l.split.version === version && l.split.percent > 0);
  return (
    <>
      {own.map((l) => (
        <span key={l.name} data-testid={`version-label-${l.name}`} className="ml-1 rounded bg-sky-100 px-1 font-normal text-sky-900" title={l.protected ? "Protected: moved only through an approved request" : undefined}>
          {l.protected ? "🔒 " : ""}
          {l.name}
        </span>
      ))}
      {splits.map((l) => (
        <span key={`split-${l.name}`} data-testid={`version-split-${l.name}`} className="ml-1 rounded bg-sky-50 px-1 font-normal text-sky-800 ring-1 ring-sky-200">
          {l.name} · {l.split?.percent} %
        </span>
      ))}
    </>
  );
}

export function VersionLabelsSection({ agent, labels, versions, canEdit }: { agent: string; labels: readonly LabelView[]; versions: readonly number[]; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("production");
  const [version, setVersion] = useState(String(versions[0] ?? 1));
  const [withSplit, setWithSplit] = useState(false);
  const [splitVersion, setSplitVersion] = useState(String(versions[1] ?? versions[0] ?? 1));
  const [percent, setPercent] = useState("20");
  const [contextKey, setContextKey] = useState("");
  const [note, setNote] = useState("");
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: labelsKey(agent) });

  const save = useMutation({
    mutationFn: async () => {
      const split = withSplit ? { version: Number(splitVersion), percent: Number(percent), ...(contextKey.trim() ? { sticky: "context" as const, contextKey: contextKey.trim() } : { sticky: "conversation" as const }) } : null;
      const result = await setLabelAction({ name: agent, label: name.trim(), version: Number(version), split, note });
      if (!result.ok) throw new Error(result.error.issues?.length ? `${result.error.message}: ${result.error.issues.map((i) => `${i.path} ${i.message}`).join("; ")}` : result.error.message);
      return result.data;
    },
    onSuccess: (result) => {
      setMessage(result.status === "applied" ? { tone: "ok", text: `${name} now names v${version}.` } : { tone: "ok", text: `${name} is protected: request ${result.request.id} waits in the inbox for an approver.` });
      refresh();
    },
    onError: (error) => setMessage({ tone: "error", text: error.message }),
  });
  const remove = useMutation({
    mutationFn: async (label: string) => {
      const result = await removeLabelAction({ name: agent, label });
      if (!result.ok) throw new Error(result.error.message);
      return { label, result: result.data };
    },
    onSuccess: ({ label, result }) => {
      setMessage(result.status === "applied" ? { tone: "ok", text: `${label} removed.` } : { tone: "ok", text: `${label} is protected: its removal waits in the inbox.` });
      refresh();
    },
    onError: (error) => setMessage({ tone: "error", text: error.message }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate();
  }

  const versionOptions = versions.map((v) => (
    <option key={v} value={v}>
      v{v}
    </option>
  ));
  return (
    <section className="space-y-1" data-testid="version-labels">
      <h2 className="text-sm font-semibold text-zinc-900">Labels</h2>
      {labels.length ? (
        <ul className="space-y-0.5">
          {labels.map((l) => (
            <li key={l.name} data-testid={`label-row-${l.name}`} className="flex flex-wrap items-center gap-1">
              <span className="font-medium">{l.name}</span> → <span data-testid="label-version">v{l.version}</span>
              {splitText(l) ? <span className="text-zinc-600">({splitText(l)})</span> : null}
              {l.protected ? <span className="rounded bg-zinc-100 px-1 text-zinc-700">protected</span> : null}
              {l.pendingRequestId ? (
                <Link href="/inbox" className="text-amber-800 underline">
                  change waiting for approval
                </Link>
              ) : null}
              {canEdit ? (
                <button type="button" className="text-indigo-700 hover:underline" disabled={remove.isPending} onClick={() => remove.mutate(l.name)}>
                  Remove {l.name}
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-zinc-500">No labels yet: a run started by a label takes the version it names.</p>
      )}
      {canEdit ? (
        <form onSubmit={submit} className="space-y-1 rounded border border-zinc-200 p-2" aria-label="Set a label">
          <div className="flex flex-wrap items-center gap-1">
            <input aria-label="Label name" value={name} onChange={(e) => setName(e.target.value)} className="w-28 rounded px-1 ring-1 ring-zinc-300" />
            on
            <select aria-label="Label version" value={version} onChange={(e) => setVersion(e.target.value)} className="rounded ring-1 ring-zinc-300">
              {versionOptions}
            </select>
          </div>
          <label className="flex items-center gap-1">
            <input type="checkbox" checked={withSplit} onChange={(e) => setWithSplit(e.target.checked)} /> Split traffic
          </label>
          {withSplit ? (
            <div className="flex flex-wrap items-center gap-1">
              <input aria-label="Split share (%)" type="number" min={0} max={100} step="any" value={percent} onChange={(e) => setPercent(e.target.value)} className="w-14 rounded px-1 ring-1 ring-zinc-300" />% to
              <select aria-label="Split version" value={splitVersion} onChange={(e) => setSplitVersion(e.target.value)} className="rounded ring-1 ring-zinc-300">
                {versionOptions}
              </select>
              <input aria-label="Sticky context key" placeholder="per conversation, or a context key" value={contextKey} onChange={(e) => setContextKey(e.target.value)} className="w-48 rounded px-1 ring-1 ring-zinc-300" />
            </div>
          ) : null}
          <input aria-label="Label note" placeholder="why (shown to the approver)" value={note} onChange={(e) => setNote(e.target.value)} className="block w-full rounded px-1 ring-1 ring-zinc-300" />
          <button type="submit" disabled={save.isPending} className="rounded bg-zinc-800 px-2 py-1 text-white">
            Set label
          </button>
        </form>
      ) : null}
      {message ? (
        <p role={message.tone === "error" ? "alert" : "status"} className={message.tone === "error" ? "text-red-700" : "text-emerald-800"} data-testid="label-message">
          {message.text}
        </p>
      ) : null}
    </section>
  );
}
