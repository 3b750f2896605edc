"use client";
// The run dialog: version (the graph's default unless one is chosen; drafts are
// listed, marked, and run only when chosen), task, context JSON checked
// against the prompts' placeholders, optional model override, example tasks,
// images (uploaded as they are attached; the launch carries their ids).
// Starting is one server action; errors stay in the dialog (a model without
// vision given images is refused there, by name), success opens the run.
import { useId, useMemo, useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { JsonEditor } from "./json-editor";
import { ImagePicker, imagesNotReady } from "@/components/attachments/image-picker";
import { useImageAttachments } from "@/components/attachments/use-image-attachments";
import type { ImageRef } from "@/lib/attachments/schemas";
import { missingPlaceholders, parseJsonObject } from "@/lib/runs/context-json";
import { startRunAction } from "@/lib/actions/start-run";
import { getLaunchOptionsAction } from "@/lib/actions/get-launch-options";
import type { ErrorBody } from "@/lib/errors";

export interface RunDialogInitial {
  version?: number;
  task?: string;
  context?: Record<string, unknown>;
  /** Images already stored (Re-run sends the same ones again, by id). */
  images?: readonly ImageRef[];
}

function ErrorBox({ error }: { error: ErrorBody }) {
  return (
    <div role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
      <p>{error.message}</p>
      {error.issues?.length ? (
        <ul className="mt-1 list-disc pl-5 text-xs">
          {error.issues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              <code>{issue.path}</code>: {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function DialogBody({ agents, fixedAgent, initial, note, onClose }: { agents: string[]; fixedAgent?: string; initial?: RunDialogInitial; note?: string; onClose: () => void }) {
  const router = useRouter();
  const ids = { agent: useId(), version: useId(), task: useId(), model: useId(), title: useId() };
  const [agent, setAgent] = useState(fixedAgent ?? agents[0] ?? "");
  const [version, setVersion] = useState<number | "">(initial?.version ?? "");
  // A version label (lib/labels): the run takes the label's version, or its split's for the split's share.
  const [label, setLabel] = useState("");
  const [task, setTask] = useState(initial?.task ?? "");
  const [contextText, setContextText] = useState(initial?.context ? JSON.stringify(initial.context, null, 2) : "{}");
  const [model, setModel] = useState("");
  const [error, setError] = useState<ErrorBody | null>(null);
  const [starting, setStarting] = useState(false);
  const images = useImageAttachments(initial?.images);
  const waitingFor = imagesNotReady(images);

  const options = useQuery({
    queryKey: ["launch-options", agent],
    enabled: Boolean(agent),
    queryFn: async () => {
      const result = await getLaunchOptionsAction({ graph: agent });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
  });
  // No number chosen: the graph's default version (the newest that is not a draft), as the server resolves it.
  const labelled = options.data?.labels.find((l) => l.name === label);
  const chosen = options.data?.versions.find((v) => v.version === (labelled ? labelled.version : version === "" ? options.data?.defaultVersion : version));
  const parsed = useMemo(() => parseJsonObject(contextText), [contextText]);
  const missing = parsed.ok && chosen ? missingPlaceholders(parsed.value, chosen.placeholders) : [];

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!parsed.ok || waitingFor) return;
    setStarting(true);
    setError(null);
    const result = await startRunAction({ graph: agent, ...(label ? { label } : version !== "" ? { version } : {}), task, context: parsed.value, model, ...(images.inputs.length ? { images: images.inputs } : {}) });
    if (!result.ok) {
      setStarting(false);
      setError(result.error);
      return;
    }
    router.push(`/runs/${encodeURIComponent(result.data.runId)}`);
  }

  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-zinc-900/40 p-8" onKeyDown={(e) => e.key === "Escape" && onClose()}>
      <form
        role="dialog"
        aria-modal="true"
        aria-labelledby={ids.title}
        onSubmit={submit}
        {...images.dropTarget}
        className={`w-full max-w-2xl space-y-4 rounded-lg bg-white p-6 shadow-xl ${images.dragging ? "ring-4 ring-indigo-300" : ""}`}
      >
        <h2 id={ids.title} className="text-lg font-semibold">
          Run {fixedAgent ?? "an agent"}
        </h2>
        {note ? (
          <p className="rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-900" data-testid="run-dialog-note">
            {note}
          </p>
        ) : null}
        <div className="grid grid-cols-2 gap-3">
          {fixedAgent ? null : (
            <div>
              <label htmlFor={ids.agent} className="mb-1 block text-sm font-medium text-zinc-700">
                Agent
              </label>
              <Select id={ids.agent} value={agent} onChange={(e) => (setAgent(e.target.value), setVersion(""))}>
                {agents.map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </Select>
            </div>
          )}
          <div>
            <label htmlFor={ids.version} className="mb-1 block text-sm font-medium text-zinc-700">
              Version
            </label>
            <Select
              id={ids.version}
              value={label ? `label:${label}` : version === "" ? "" : String(version)}
              onChange={(e) => {
                const value = e.target.value;
                setLabel(value.startsWith("label:") ? value.slice("label:".length) : "");
                setVersion(value && !value.startsWith("label:") ? Number(value) : "");
              }}
            >
              <option value="">default{options.data?.defaultVersion ? ` (v${options.data.defaultVersion})` : ""}</option>
              {/* A version asked for (Re-run, the designer's choice) shows as chosen while the list loads. */}
              {version !== "" && !options.data?.versions.some((v) => v.version === version) ? <option value={version}>v{version}</option> : null}
              {options.data?.labels.map((l) => (
                <option key={`label:${l.name}`} value={`label:${l.name}`}>
                  label {l.name} (v{l.version}
                  {l.splitVersion !== null && l.splitPercent > 0 ? `, ${l.splitPercent} % to v${l.splitVersion}` : ""})
                </option>
              ))}
              {options.data?.versions.map((v) => (
                <option key={v.version} value={v.version}>
                  v{v.version}
                  {v.draft ? " (draft)" : ""}
                  {v.note ? ` – ${v.note.slice(0, 40)}` : ""}
                </option>
              ))}
            </Select>
          </div>
        </div>
        {options.data?.examples.length ? (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="text-zinc-500">Examples:</span>
            {options.data.examples.map((example) => (
              <button
                key={example.label}
                type="button"
                className="rounded-full bg-indigo-50 px-3 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-100"
                onClick={() => {
                  setTask(example.task);
                  if (example.context) setContextText(JSON.stringify(example.context, null, 2));
                }}
              >
                {example.label}
              </button>
            ))}
          </div>
        ) : null}
        <div>
          <label htmlFor={ids.task} className="mb-1 block text-sm font-medium text-zinc-700">
            Task
          </label>
          <textarea id={ids.task} required value={task} onChange={(e) => setTask(e.target.value)} rows={4} className="block w-full rounded-md px-3 py-2 text-sm ring-1 ring-zinc-300 ring-inset focus:ring-2 focus:ring-indigo-600" />
        </div>
        <ImagePicker attachments={images} />
        {images.items.length && !model.trim() && chosen && !chosen.vision ? (
          // A hint only: the server's vision check decides (an override may name a model with vision).
          <p data-testid="vision-hint" className="text-xs text-amber-700">
            The saved model {chosen.model || "of this version"} does not read images: set a model with vision as the override (such as demo/vision), or the run will be refused.
          </p>
        ) : null}
        <JsonEditor label="Context (JSON)" value={contextText} onChange={setContextText} placeholders={chosen?.placeholders} rows={6} />
        {chosen?.placeholders.length ? (
          <p className="text-xs text-zinc-600">
            The prompts use {chosen.placeholders.map((p) => `{{${p}}}`).join(", ")}.
            {missing.length ? <span className="ml-1 font-medium text-amber-700">Missing: {missing.join(", ")}</span> : <span className="ml-1 text-emerald-700">All supplied.</span>}
          </p>
        ) : null}
        <div>
          <label htmlFor={ids.model} className="mb-1 block text-sm font-medium text-zinc-700">
            Model override (optional)
          </label>
          <Input id={ids.model} value={model} onChange={(e) => setModel(e.target.value)} placeholder={chosen?.model ? `as saved: ${chosen.model}` : "as saved"} />
        </div>
        {options.error ? <ErrorBox error={{ code: "not_found", message: options.error.message }} /> : null}
        {error ? <ErrorBox error={error} /> : null}
        <div className="flex items-center justify-end gap-2">
          {waitingFor ? <span className="mr-auto text-xs text-zinc-600">{waitingFor}</span> : null}
          <Button type="button" variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" disabled={starting || !parsed.ok || !agent || missing.length > 0 || waitingFor !== null}>
            {starting ? "Starting…" : "Start run"}
          </Button>
        </div>
      </form>
    </div>
  );
}

/** A button that opens the run dialog for one agent (`agent`) or a choice of agents (`agents`). */
export function RunDialog({ agent, agents = [], initial, label = "Run", ariaLabel, variant = "primary", className }: { agent?: string; agents?: string[]; initial?: RunDialogInitial; label?: string; ariaLabel?: string; variant?: "primary" | "secondary" | "ghost"; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="button" variant={variant} className={className} aria-label={ariaLabel} onClick={() => setOpen(true)}>
        {label}
      </Button>
      {open ? <DialogBody agents={agents} fixedAgent={agent} initial={initial} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * The run dialog opened by its owner rather than by its own button (the
 * designer opens it after asking whether to save the draft first), with the
 * version chosen and a note saying which one it is.
 */
export function RunLaunchDialog({ agent, initial, note, onClose }: { agent: string; initial?: RunDialogInitial; note?: string; onClose: () => void }) {
  return <DialogBody agents={[]} fixedAgent={agent} initial={initial} note={note} onClose={onClose} />;
}
