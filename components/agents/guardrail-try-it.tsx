"use client";
// "Try it": a pasted text run through each of the agent's guardrails in the
// browser, with the same checks module the workflow runs, so the builder sees
// what the engine would decide before saving. Checks that need the server (a
// model judge, a JSON schema compiled by Ajv, a registered custom check) say so.
import { useId, useMemo, useState } from "react";
import { evaluateDeterministicCheck, maskFindings } from "@/lib/guardrails/checks";
import type { Guardrail, GuardrailVerdict } from "@/lib/guardrails/schemas";

type TryResult = { kind: "verdict"; verdict: GuardrailVerdict; masked?: string } | { kind: "server" } | { kind: "error"; message: string };

/** What `guardrail` decides on `text`, as far as the browser can tell. */
export function tryGuardrail(guardrail: Guardrail, text: string): TryResult {
  try {
    const verdict = evaluateDeterministicCheck(guardrail.check, text);
    if (!verdict) return { kind: "server" };
    const masked = verdict.tripped && guardrail.action === "mask" ? maskFindings(text, verdict.findings) : undefined;
    return { kind: "verdict", verdict, ...(masked === undefined ? {} : { masked }) };
  } catch (error) {
    return { kind: "error", message: error instanceof Error ? error.message : String(error) };
  }
}

const ACTION_WORDS: Record<Guardrail["action"], string> = {
  block: "the run would be blocked",
  mask: "the text would be masked",
  rewrite: "the model would be asked to rewrite",
  inbox: "the call would wait in the inbox",
  log: "the trip would be logged only",
};

export function GuardrailTryIt({ guardrails }: { guardrails: readonly Guardrail[] }) {
  const id = useId();
  const [text, setText] = useState("");
  const [tried, setTried] = useState<string | null>(null);
  // Recomputed when a guardrail is edited after a try, so the verdicts follow the edits.
  const results = useMemo(() => (tried === null ? [] : guardrails.map((guardrail) => ({ guardrail, result: tryGuardrail(guardrail, tried) }))), [guardrails, tried]);
  return (
    <section className="space-y-2 rounded-md bg-zinc-50 p-2" aria-label="Try the guardrails">
      <label htmlFor={`${id}-text`} className="block text-xs font-medium text-zinc-700">
        Try it: a text to check
      </label>
      <textarea id={`${id}-text`} rows={3} className="block w-full rounded-md border-0 bg-white px-2 py-1 text-sm ring-1 ring-inset ring-zinc-300" value={text} onChange={(e) => setText(e.target.value)} placeholder="Paste a task, an answer or a tool call's arguments" />
      <button type="button" className="rounded px-2 py-1 text-xs font-medium ring-1 ring-zinc-300 hover:bg-white disabled:opacity-40" disabled={guardrails.length === 0} onClick={() => setTried(text)}>
        Try
      </button>
      {tried !== null ? (
        <ul className="space-y-1" aria-live="polite" data-testid="guardrail-try-results">
          {results.map(({ guardrail, result }, g) => (
            <li key={`${g}:${guardrail.name}`} className="rounded bg-white p-2 text-xs ring-1 ring-zinc-200" data-testid="guardrail-try-result" data-guardrail={guardrail.name}>
              <span className="font-mono">{guardrail.name}</span>{" "}
              {result.kind === "server" ? (
                <span className="text-zinc-600" data-testid="guardrail-try-verdict">runs on the server when the agent runs</span>
              ) : result.kind === "error" ? (
                <span className="text-red-700" data-testid="guardrail-try-verdict">cannot run: {result.message}</span>
              ) : (
                <>
                  <span className={result.verdict.tripped ? "font-semibold text-red-700" : "font-semibold text-emerald-700"} data-testid="guardrail-try-verdict">
                    {result.verdict.tripped ? "tripped" : "passed"}
                  </span>
                  {result.verdict.tripped ? <span className="text-zinc-600"> — {ACTION_WORDS[guardrail.action]}</span> : null}
                  <span className="block text-zinc-700" data-testid="guardrail-try-reason">{result.verdict.reason}</span>
                  {result.masked !== undefined ? (
                    <span className="mt-1 block whitespace-pre-wrap rounded bg-zinc-50 p-1 font-mono" data-testid="guardrail-try-masked">
                      {result.masked}
                    </span>
                  ) : null}
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
