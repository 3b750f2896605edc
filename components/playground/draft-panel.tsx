"use client";
// "Save as draft", said before it saves (issue 37 §2): what a draft version
// of the graph would hold — the agent's settings that differ from the version
// it is saved on top of, each before → after — and what it would not (the
// conversation's other edits, tools switched off); "Nothing to save" and no
// button when nothing of the agent changed. A saved draft is not the graph's
// default: runs, the run dialog and the experiment form keep taking the
// default until someone promotes the draft (here, or in the designer's history).
import { useState, useTransition } from "react";
import Link from "@/components/ui/link";
import type { PlaygroundCall, PlaygroundDraftSaved } from "@/lib/playground/schemas";
import { draftChanges, nothingToSaveMessage, type DraftEdit } from "@/lib/playground/draft";
import { savePlaygroundDraftAction } from "@/lib/actions/save-playground-draft";
import { promoteAgentVersionAction } from "@/lib/actions/promote-agent-version";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { describeError } from "@/components/feedback/error-text";

/** A long prompt shown whole is no preview: its start, and how long it is. */
function preview(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 120 ? `${line.slice(0, 117)}… (${text.length.toLocaleString("en")} characters)` : line || "(empty)";
}

export function DraftPanel({ call, edit, notInDraft }: { call: PlaygroundCall & { graphName: string; latestVersion: number }; edit: DraftEdit; notInDraft: string[] }) {
  const [saved, setSaved] = useState<PlaygroundDraftSaved | null>(null);
  const [promoted, setPromoted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const changes = call.base ? draftChanges(call.base, edit) : [];
  const base = call.latestVersion;

  const save = () =>
    startTransition(async () => {
      setError(null);
      const result = await savePlaygroundDraftAction({ runId: call.runId, spanId: call.spanId, graphName: call.graphName, agentName: call.agentName, baseVersion: base, ...edit });
      if (!result.ok) return setError(describeError(result.error));
      setSaved(result.data);
      setPromoted(false);
    });
  const promote = (version: number) =>
    startTransition(async () => {
      setError(null);
      const result = await promoteAgentVersionAction({ name: call.graphName, version });
      if (!result.ok) return setError(describeError(result.error));
      setPromoted(true);
    });

  return (
    <section aria-label="Save as draft" data-testid="draft-preview" className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 text-xs">
      {!call.base ? (
        <p className="text-zinc-600">
          v{base} of {call.graphName} has no agent {call.agentName}: there is nothing to save a draft of.
        </p>
      ) : changes.length === 0 ? (
        <p data-testid="draft-nothing" className="text-zinc-600">
          {nothingToSaveMessage(call.agentName, base)}
        </p>
      ) : (
        <div className="space-y-1">
          <p className="text-zinc-700">
            A draft of <strong>{call.graphName}</strong> on top of v{base} (the default) would hold {call.agentName}&apos;s:
          </p>
          <ul data-testid="draft-changes" className="space-y-0.5 pl-3">
            {changes.map((c) => (
              <li key={c.field} data-field={c.field} className="break-words">
                <span className="font-medium">{c.label}</span>: <span className="text-red-700 line-through">{preview(c.before)}</span> → <span className="text-emerald-700">{preview(c.after)}</span>
              </li>
            ))}
          </ul>
          <p className="text-zinc-500">It stays a draft: runs and the run dialog keep taking v{base} until someone promotes it.</p>
        </div>
      )}
      {notInDraft.length ? (
        <p data-testid="draft-not-saved" className="text-zinc-600">
          Not in any version: {notInDraft.join("; ")}. A version holds the agent&apos;s settings, not this conversation.
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="secondary" disabled={pending || changes.length === 0} onClick={save}>
          {pending && !saved ? "Saving…" : "Save as draft"}
        </Button>
      </div>
      {saved ? (
        <Alert tone="success">
          Saved draft version {saved.version} of {saved.graphName}
          {promoted ? `, now the default version.` : ` — not the default: v${saved.baseVersion} stays the default until the draft is promoted.`}{" "}
          <Link className="underline" href={`/agents/${encodeURIComponent(saved.graphName)}?version=${saved.version}`}>
            Open it
          </Link>
          {promoted ? null : (
            <Button type="button" variant="ghost" className="ml-2 px-2 py-0.5 text-xs" disabled={pending} onClick={() => promote(saved.version)}>
              Promote v{saved.version} to default
            </Button>
          )}
        </Alert>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </section>
  );
}
