"use client";
// "Fork from here" on a step of a run: the dialog picks the version (the
// origin's by default), a model, the prompt of the step's agent and, for a tool
// step, an edited result or, for a model step, an edited output; starting the
// fork opens the new run (its header links "Compare with origin").
import { useId, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { forkRunAction } from "@/lib/actions/fork-run";
import { getForkOptionsAction } from "@/lib/actions/get-fork-options";
import type { ForkOptions } from "@/lib/forks/schemas";
import type { ErrorBody } from "@/lib/errors";

const TEXTAREA = "block w-full rounded-md px-3 py-2 font-mono text-xs ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-indigo-600";

export function ForkFromHere({ runId, spanId }: { runId: string; spanId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="text-indigo-600 hover:underline" onClick={() => setOpen(true)}>
        Fork from here
      </button>
      {open ? <ForkDialog runId={runId} spanId={spanId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ForkDialog({ runId, spanId, onClose }: { runId: string; spanId: string; onClose: () => void }) {
  const title = useId();
  const options = useQuery({
    queryKey: ["fork-options", runId, spanId],
    queryFn: async () => {
      const result = await getForkOptionsAction({ runId, spanId });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
  });
  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-zinc-900/40 p-8" onKeyDown={(e) => e.key === "Escape" && onClose()}>
      <div role="dialog" aria-modal="true" aria-labelledby={title} className="w-full max-w-2xl space-y-4 rounded-lg bg-white p-6 text-sm shadow-xl">
        <h2 id={title} className="text-lg font-semibold">
          Fork from here
        </h2>
        {options.error ? <p className="text-red-600">{options.error.message}</p> : null}
        {options.data ? <ForkForm options={options.data} onClose={onClose} /> : options.isPending ? <p className="text-zinc-500">Loading…</p> : null}
      </div>
    </div>
  );
}

function ForkForm({ options, onClose }: { options: ForkOptions; onClose: () => void }) {
  const router = useRouter();
  const ids = { version: useId(), model: useId(), prompt: useId(), edit: useId() };
  // The origin's version (an unsaved variant's: the one it derives from); failing that the default, never a draft.
  const origin = options.versions.find((v) => v.isOrigin) ?? options.versions.find((v) => !v.draft) ?? options.versions[0];
  const [version, setVersion] = useState<number | undefined>(origin?.version);
  const chosen = options.versions.find((v) => v.version === version);
  const [model, setModel] = useState("");
  const [prompt, setPrompt] = useState<string | null>(null);
  const editable = options.span.kind === "tool" ? "result" : options.span.kind === "inference" ? "output" : null;
  const [editing, setEditing] = useState(false);
  const [edit, setEdit] = useState(options.recorded ?? "");
  const [error, setError] = useState<ErrorBody | null>(null);
  const [starting, setStarting] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setStarting(true);
    setError(null);
    const result = await forkRunAction({
      runId: options.runId,
      spanId: options.spanId,
      ...(version !== undefined ? { version } : {}),
      ...(model.trim() ? { model: model.trim() } : {}),
      ...(prompt !== null && chosen?.agent && prompt !== chosen.agent.systemPrompt ? { prompt: { agent: chosen.agent.name, systemPrompt: prompt } } : {}),
      ...(editing && editable === "result" ? { editedToolResult: edit } : {}),
      ...(editing && editable === "output" ? { editedModelOutput: edit } : {}),
    });
    if (!result.ok) {
      setStarting(false);
      setError(result.error);
      return;
    }
    router.push(`/runs/${encodeURIComponent(result.data.runId)}`);
  }

  if (!options.graphName) return <p className="text-zinc-600">This run executed an inline graph with no saved version; only runs of a saved agent can be forked.</p>;
  return (
    <form onSubmit={submit} className="space-y-4">
      <p className="text-zinc-600">
        Starts this run&apos;s task again. Every step that ended before <strong>{`${options.span.kind} ${options.span.name}`}</strong> is reused from the recording (no model call, no side effect); this step and the rest run live.
      </p>
      <div className="grid grid-cols-2 gap-3">
        <div>
          <label htmlFor={ids.version} className="mb-1 block font-medium text-zinc-700">
            Version
          </label>
          <Select id={ids.version} value={version ?? ""} onChange={(e) => (setVersion(Number(e.target.value)), setPrompt(null))}>
            {options.versions.map((v) => (
              <option key={v.version} value={v.version}>
                {`v${v.version}${v.isOrigin ? " (this run's)" : ""}${v.draft ? " (draft)" : ""}${v.note ? ` — ${v.note}` : ""}`}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <label htmlFor={ids.model} className="mb-1 block font-medium text-zinc-700">
            Model
          </label>
          <Input id={ids.model} value={model} onChange={(e) => setModel(e.target.value)} placeholder={chosen?.agent ? `as saved: ${chosen.agent.model}` : "as saved"} />
        </div>
      </div>
      {chosen?.agent ? (
        <div>
          <label htmlFor={ids.prompt} className="mb-1 block font-medium text-zinc-700">
            {`System prompt of ${chosen.agent.name}`}
          </label>
          <textarea id={ids.prompt} rows={4} className={TEXTAREA} value={prompt ?? chosen.agent.systemPrompt} onChange={(e) => setPrompt(e.target.value)} />
        </div>
      ) : null}
      {editable ? (
        <div className="space-y-2">
          <label className="flex items-center gap-2 font-medium text-zinc-700">
            <input type="checkbox" checked={editing} onChange={(e) => setEditing(e.target.checked)} />
            {editable === "result" ? "Edit the tool's result" : "Edit the model's output"}
          </label>
          {editing ? (
            <div>
              <label htmlFor={ids.edit} className="mb-1 block text-xs text-zinc-500">
                {editable === "result" ? "Edited result (JSON or text)" : "Edited output (the step becomes the agent's answer)"}
              </label>
              <textarea id={ids.edit} rows={6} className={TEXTAREA} value={edit} onChange={(e) => setEdit(e.target.value)} />
            </div>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-red-600">
          {error.message}
          {error.issues?.length ? `: ${error.issues.map((i) => `${i.path} ${i.message}`).join("; ")}` : ""}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={starting || version === undefined}>
          {starting ? "Starting…" : "Start fork"}
        </Button>
      </div>
    </form>
  );
}
