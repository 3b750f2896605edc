"use client";
// The playground (issue 27 §1): a recorded model call — or a blank one — to
// edit and run alone, its outputs side by side with the original's (tokens and
// cost each), and "Save as draft": the edited prompt, model, temperature and
// output cap as a draft version of the agent's graph, said before it saves
// (components/playground/draft-panel.tsx).
import { useEffect, useRef, useState, useTransition } from "react";
import Link from "@/components/ui/link";
import type { ChatMessage } from "@/lib/contract/types";
import type { CatalogOptions } from "@/lib/models/catalog";
import { supportsVision } from "@/lib/models/catalog";
import { appendUserMessage, editMessage, limitProblem, promptToSave, removeMessage } from "@/lib/playground/messages";
import { PLAYGROUND_MAX_MESSAGES, type PlaygroundCall, type PlaygroundResult, type PlaygroundTool } from "@/lib/playground/schemas";
import { playgroundCallAction } from "@/lib/actions/playground-call";
import { loadPlaygroundCallAction } from "@/lib/actions/load-playground-call";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { MessageEditor } from "@/components/playground/message-editor";
import { OutputCard } from "@/components/playground/output-card";
import { DraftPanel } from "@/components/playground/draft-panel";
import { notInDraft, type DraftEdit } from "@/lib/playground/draft";
import { describeError } from "@/components/feedback/error-text";

/** The newest attempts kept beside the original. */
const ATTEMPTS_KEPT = 3;

const BLANK: ChatMessage[] = [
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "answer: Hello from the playground." },
];

/** The recorded call a link names. */
export interface PlaygroundOpen {
  runId: string;
  spanId: string;
}

interface Props {
  call: PlaygroundCall | null;
  problem: string | null;
  models: string[];
  catalog: CatalogOptions;
  canRun: boolean;
  canSave: boolean;
}

/**
 * Opens the call the link names through its action (a POST, audited: describing the agent's tools starts a
 * workflow), then shows it in the editor; a blank call at once when the link names none.
 */
export function PlaygroundClient({ open, problem, models, ...rest }: Omit<Props, "call"> & { open: PlaygroundOpen | null }) {
  const [opened, setOpened] = useState<{ call: PlaygroundCall | null; problem: string | null } | null>(open ? null : { call: null, problem: null });
  // Once per mount, even where React runs effects twice (development): each open is one audited workflow.
  const requested = useRef(false);
  useEffect(() => {
    if (!open || requested.current) return;
    requested.current = true;
    loadPlaygroundCallAction(open).then(
      (result) => setOpened(result.ok ? { call: result.data, problem: null } : { call: null, problem: describeError(result.error) }),
      () => setOpened({ call: null, problem: "The model call could not be opened: the server did not answer. Reload the page to try again." }),
    );
  }, [open]);
  if (!opened) return <p className="text-sm text-zinc-500">Opening model call {open?.spanId} of run {open?.runId}…</p>;
  // The catalogue's suggestions, plus the call's own model.
  const withCallModel = opened.call && !models.includes(opened.call.model) ? [...models, opened.call.model] : models;
  return <PlaygroundEditor call={opened.call} problem={problem ?? opened.problem} models={withCallModel} {...rest} />;
}

function PlaygroundEditor({ call, problem, models, catalog, canRun, canSave }: Props) {
  const [messages, setMessages] = useState<ChatMessage[]>(call?.messages ?? BLANK);
  const [model, setModel] = useState(call?.model ?? "demo/assistant");
  const [temperature, setTemperature] = useState(String(call?.temperature ?? 0.2));
  const [maxOutputTokens, setMaxOutputTokens] = useState(String(call?.maxOutputTokens ?? 1024));
  const [offered, setOffered] = useState<Set<string>>(new Set(call?.tools.map((t) => t.name) ?? []));
  const [attempts, setAttempts] = useState<PlaygroundResult[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [running, startRun] = useTransition();

  const tools: PlaygroundTool[] = (call?.tools ?? []).filter((t) => offered.has(t.name));
  const limit = limitProblem(messages, tools);
  const images = messages.reduce((n, m) => n + (m.role === "user" ? (m.images?.length ?? 0) : 0), 0);
  const visionProblem = images > 0 && !supportsVision(model, catalog) ? `${model} does not read images; this conversation has ${images}.` : null;
  const temperatureValue = Number(temperature);
  const maxTokensValue = Number(maxOutputTokens);

  function run() {
    startRun(async () => {
      setNotice(null);
      const result = await playgroundCallAction({
        ...(call ? { runId: call.runId, spanId: call.spanId, agentName: call.agentName } : {}),
        model: model.trim(),
        temperature: temperatureValue,
        maxOutputTokens: maxTokensValue,
        messages,
        tools,
      });
      if (!result.ok) return setNotice(describeError(result.error));
      setAttempts((previous) => [result.data, ...previous].slice(0, ATTEMPTS_KEPT));
    });
  }

  // What "Save as draft" would save: the prompt as a template (when not edited), and the model and output cap only when changed.
  const system = messages.find((m) => m.role === "system");
  const rendered = call?.messages.find((m) => m.role === "system")?.content ?? "";
  const edit: DraftEdit = {
    systemPrompt: promptToSave(system?.content ?? "", rendered, call?.promptTemplate ?? null),
    // An agent that inherits its model, or a run started on another one, keeps its own unless the model was changed here.
    ...(call && model.trim() !== call.model ? { model: model.trim() } : {}),
    temperature: temperatureValue,
    ...(call && maxTokensValue !== call.maxOutputTokens ? { maxOutputTokens: maxTokensValue } : {}),
  };
  const draftable = call && call.graphName !== null && call.latestVersion !== null && canSave ? { ...call, graphName: call.graphName, latestVersion: call.latestVersion } : null;

  return (
    <div className="space-y-4">
      {problem ? <Alert tone="error">{problem}</Alert> : null}
      {call ? (
        <p data-testid="playground-source" className="text-sm text-zinc-600">
          Model call <span className="font-mono">{call.spanId}</span> of run{" "}
          <Link className="font-mono text-indigo-700 hover:underline" href={`/runs/${encodeURIComponent(call.runId)}`}>
            {call.runId}
          </Link>{" "}
          · agent {call.agentName}
          {call.graphName ? ` · ${call.graphName} v${call.version}` : " · inline graph"}
          {call.messagesOmitted ? ` · ${call.messagesOmitted} earlier messages left out (limit ${PLAYGROUND_MAX_MESSAGES})` : ""}
        </p>
      ) : (
        <Alert tone="info">A blank call. To start from a real one, open a model call in a run&apos;s trace and choose &quot;Open in playground&quot;.</Alert>
      )}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
        <section aria-label="Call to run" className="space-y-3">
          <div className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 bg-white p-3 text-sm">
            <label className="flex flex-col gap-1">
              <span className="text-xs text-zinc-600">Model</span>
              <Input aria-label="Model" list="playground-models" value={model} onChange={(e) => setModel(e.target.value)} className="w-56 font-mono" />
              <datalist id="playground-models">
                {models.map((m) => (
                  <option key={m} value={m} />
                ))}
              </datalist>
            </label>
            <label className="flex flex-col gap-1">
              <span className="text-xs text-zinc-600">Temperature</span>
              <Input aria-label="Temperature" type="number" min={0} max={2} step={0.1} value={temperature} onChange={(e) => setTemperature(e.target.value)} className="w-24" />
            </label>
            <label className="flex flex-col gap-1">
              <span className="text-xs text-zinc-600">Max output tokens</span>
              <Input aria-label="Max output tokens" type="number" min={1} value={maxOutputTokens} onChange={(e) => setMaxOutputTokens(e.target.value)} className="w-28" />
            </label>
            <span className="text-xs text-zinc-500">{supportsVision(model, catalog) ? "reads images" : "text only"}</span>
          </div>
          <div className="space-y-2">
            {messages.map((message, i) => (
              <MessageEditor key={i} index={i} message={message} onChange={(text) => setMessages((m) => editMessage(m, i, text))} onRemove={() => setMessages((m) => removeMessage(m, i))} />
            ))}
            <Button type="button" variant="secondary" className="text-xs" onClick={() => setMessages((m) => appendUserMessage(m, ""))}>
              Add a user message
            </Button>
          </div>
          {call?.tools.length ? (
            <details className="rounded-lg border border-zinc-200 bg-white p-3 text-sm">
              <summary className="cursor-pointer text-xs font-medium text-zinc-700">
                Tools offered ({offered.size} of {call.tools.length})
              </summary>
              <ul className="mt-2 space-y-1 text-xs">
                {call.tools.map((tool) => (
                  <li key={tool.name}>
                    <label className="flex items-start gap-2">
                      <input
                        type="checkbox"
                        checked={offered.has(tool.name)}
                        onChange={(e) => setOffered((s) => (e.target.checked ? new Set([...s, tool.name]) : new Set([...s].filter((n) => n !== tool.name))))}
                      />
                      <span>
                        <span className="font-mono">{tool.name}</span> <span className="text-zinc-500">{tool.description.split("\n")[0]}</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {call?.toolNotes.map((note) => (
            <p key={note} className="text-xs text-amber-800">
              {note}
            </p>
          ))}
          {limit ? <Alert tone="error">{limit.message}</Alert> : null}
          {visionProblem ? <Alert tone="error">{visionProblem}</Alert> : null}
          <div className="flex flex-wrap items-center gap-2">
            <Button type="button" disabled={!canRun || running || limit !== null || visionProblem !== null} onClick={run}>
              {running ? "Running…" : "Run"}
            </Button>
            {!canRun ? <span className="text-xs text-zinc-500">Running a call costs money: builders and admins may.</span> : null}
          </div>
          {notice ? <Alert tone="error">{notice}</Alert> : null}
          {draftable ? <DraftPanel call={draftable} edit={edit} notInDraft={notInDraft(draftable.messages, messages, draftable.tools.length - tools.length)} /> : null}
        </section>
        <section aria-label="Outputs" className="grid auto-rows-min gap-3 md:grid-cols-2">
          {call ? <OutputCard title="Original" output={call.original} kind="original" /> : null}
          {attempts.map((attempt, i) => (
            <OutputCard key={attempt.at} title={i === 0 ? "New output" : `Earlier attempt ${i}`} output={attempt} kind="attempt" />
          ))}
          {!call && attempts.length === 0 ? <p className="text-sm text-zinc-500">Run the call to see its output here.</p> : null}
        </section>
      </div>
    </div>
  );
}
