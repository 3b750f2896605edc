"use client";
// The /evaluators page: every online evaluator with what it scores (graph,
// version or label, checks), how (sampling, delay, spend cap with today's
// spend), and how it did in the last 24 h (counts by status, mean score); for
// builders and admins, create / edit / enable / disable / delete and a backfill
// over a past range with its progress. Viewers read; the server refuses them
// changes whatever the page shows.
import { useMemo, useState, useTransition } from "react";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { createEvaluatorAction } from "@/lib/actions/create-evaluator";
import { updateEvaluatorAction } from "@/lib/actions/update-evaluator";
import { deleteEvaluatorAction } from "@/lib/actions/delete-evaluator";
import { createInputOf, draftIssues, draftOfView, EMPTY_EVALUATOR_DRAFT, serverIssues, updateInputOf, type EvaluatorDraft } from "@/lib/online-eval/draft";
import { evaluatorCheckName, EVALUATION_STATUSES, type EvaluatorView } from "@/lib/online-eval/schemas";
import { formatCost, formatCount, formatScore } from "@/lib/format/figures";
import type { ErrorBody } from "@/lib/errors";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EvaluatorForm } from "@/components/evaluators/evaluator-form";
import { BackfillDialog, BackfillList } from "@/components/evaluators/backfill-panel";
import { STATUS_WORDS } from "@/components/evaluators/evaluation-words";

function describeError(error: ErrorBody): string {
  return error.issues?.length ? `${error.message}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : error.message;
}

/** The top-level draft field an issue's path belongs to (what the user touched to cause it). */
function fieldOf(key: string): string {
  if (key.startsWith("checks")) return "checks";
  if (key.startsWith("datasetRule.dataset")) return "datasetRuleDataset";
  if (key.startsWith("datasetRule")) return "datasetRuleBelow";
  if (key.startsWith("expectations")) return "expectedOutput";
  return key.split(".")[0] ?? key;
}

function delayWords(seconds: number): string {
  if (seconds === 0) return "at once";
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

function Scope({ evaluator }: { evaluator: EvaluatorView }) {
  return (
    <>
      <Link href={`/runs?graph=${encodeURIComponent(evaluator.graph)}`} className="text-indigo-700 hover:underline">
        {evaluator.graph}
      </Link>
      <span className="block text-xs text-zinc-500">
        {evaluator.version !== null ? `v${evaluator.version}` : "any version"}
        {evaluator.label ? ` · label ${evaluator.label}` : ""}
        {evaluator.target === "conversation" ? " · conversations" : ""}
      </span>
    </>
  );
}

function Last24h({ evaluator }: { evaluator: EvaluatorView }) {
  const counts = EVALUATION_STATUSES.filter((s) => evaluator.stats.last24h[s] > 0);
  if (!counts.length) return <span className="text-xs text-zinc-500">none</span>;
  return (
    <ul className="text-xs" data-testid="evaluator-last24h">
      {counts.map((status) => (
        <li key={status}>
          {formatCount(evaluator.stats.last24h[status])} {STATUS_WORDS[status]}
        </li>
      ))}
    </ul>
  );
}

export function EvaluatorsClient({ evaluators, graphs, canManage }: { evaluators: EvaluatorView[]; graphs: string[]; canManage: boolean }) {
  const router = useRouter();
  const [draft, setDraft] = useState<EvaluatorDraft | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const [fromServer, setFromServer] = useState<Map<string, string>>(new Map());
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  const issues = useMemo(() => (draft ? draftIssues(draft) : new Map<string, string>()), [draft]);
  // A field's message shows once it was typed in (or after a save was tried), so a new form does not open in red.
  const shown = useMemo(() => {
    const visible = new Map([...issues].filter(([key]) => attempted || touched.has(fieldOf(key))));
    for (const [key, text] of fromServer) if (!visible.has(key)) visible.set(key, text);
    return visible;
  }, [issues, touched, attempted, fromServer]);

  function open(next: EvaluatorDraft) {
    setDraft(next);
    setTouched(new Set());
    setAttempted(false);
    setFromServer(new Map());
    setMessage(null);
  }

  function change(patch: Partial<EvaluatorDraft>) {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setTouched((t) => new Set([...t, ...Object.keys(patch)]));
    setFromServer(new Map());
  }

  function save(d: EvaluatorDraft) {
    setAttempted(true);
    if (draftIssues(d).size > 0) return;
    startTransition(async () => {
      const result = d.editing ? await updateEvaluatorAction(updateInputOf(d)) : await createEvaluatorAction(createInputOf(d));
      if (!result.ok) {
        setFromServer(serverIssues(result.error.issues));
        setMessage({ tone: "error", text: describeError(result.error) });
        return;
      }
      setMessage({ tone: "success", text: `${result.data.name} is ${d.editing ? "saved" : "created"}.` });
      setDraft(null);
      router.refresh();
    });
  }

  function setEnabled(evaluator: EvaluatorView, enabled: boolean) {
    startTransition(async () => {
      const result = await updateEvaluatorAction({ id: evaluator.id, enabled });
      setMessage(result.ok ? { tone: "success", text: `${evaluator.name} is ${enabled ? "enabled" : "disabled"}.` } : { tone: "error", text: describeError(result.error) });
      router.refresh();
    });
  }

  function remove(evaluator: EvaluatorView) {
    if (!window.confirm(`Delete the evaluator "${evaluator.name}"? Its scores and backfills go with it.`)) return;
    startTransition(async () => {
      const result = await deleteEvaluatorAction({ id: evaluator.id });
      setMessage(result.ok ? { tone: "success", text: `${evaluator.name} is deleted.` } : { tone: "error", text: describeError(result.error) });
      router.refresh();
    });
  }

  return (
    <div className="space-y-6">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <Card>
        <CardHeader
          title="Online evaluators"
          description={canManage ? undefined : "Builders and admins create and change evaluators; you can read them."}
          action={canManage && !draft ? <Button onClick={() => open(EMPTY_EVALUATOR_DRAFT)}>New evaluator</Button> : undefined}
        />
        {draft ? (
          <div className="border-b border-zinc-100 px-5 py-4">
            <EvaluatorForm draft={draft} issues={shown} graphs={graphs} pending={pending} onChange={change} onSave={() => save(draft)} onCancel={() => setDraft(null)} />
          </div>
        ) : null}
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-zinc-200 text-sm" aria-label="Evaluators">
            <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
              <tr>
                <th className="px-4 py-2">Name</th>
                <th className="px-4 py-2">Graph</th>
                <th className="px-4 py-2">Checks</th>
                <th className="px-4 py-2">Sampling · delay</th>
                <th className="px-4 py-2">Spend today</th>
                <th className="px-4 py-2">Last 24 h</th>
                <th className="px-4 py-2">Mean score (24 h)</th>
                <th className="px-4 py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {evaluators.length === 0 ? (
                <tr>
                  <td colSpan={8} className="px-4 py-6 text-center text-zinc-500">
                    No evaluators yet.{canManage ? " Create one to score a graph's live runs." : ""}
                  </td>
                </tr>
              ) : null}
              {evaluators.map((evaluator) => (
                <tr key={evaluator.id} id={evaluator.name} data-testid={`evaluator-row-${evaluator.name}`} className="align-top">
                  <td className="px-4 py-2">
                    <span className="font-medium text-zinc-900">{evaluator.name}</span>{" "}
                    {evaluator.enabled ? <Badge tone="success">enabled</Badge> : <Badge>disabled</Badge>}
                    {evaluator.description ? <p className="text-xs text-zinc-500">{evaluator.description}</p> : null}
                    <Link className="block text-xs text-indigo-700 hover:underline" href={`/runs?evaluator=${encodeURIComponent(evaluator.name)}`}>
                      Scored runs
                    </Link>
                    <div className="mt-1">
                      <BackfillList evaluator={evaluator} />
                    </div>
                  </td>
                  <td className="px-4 py-2">
                    <Scope evaluator={evaluator} />
                  </td>
                  <td className="px-4 py-2">
                    <ul className="font-mono text-xs">
                      {evaluator.checks.map((check) => (
                        <li key={evaluatorCheckName(check)}>{evaluatorCheckName(check)}</li>
                      ))}
                    </ul>
                  </td>
                  <td className="whitespace-nowrap px-4 py-2 text-xs">
                    {Math.round(evaluator.samplingRate * 1000) / 10} % · {delayWords(evaluator.delaySeconds)}
                  </td>
                  <td className="whitespace-nowrap px-4 py-2 text-xs tabular-nums" data-testid="evaluator-spend">
                    {formatCost(evaluator.stats.spentTodayUsd)}
                    {evaluator.dailySpendCapUsd !== null ? ` of ${formatCost(evaluator.dailySpendCapUsd)}` : " (no cap)"}
                  </td>
                  <td className="px-4 py-2">
                    <Last24h evaluator={evaluator} />
                  </td>
                  <td className="px-4 py-2 tabular-nums" data-testid="evaluator-mean">
                    {formatScore(evaluator.stats.meanScore24h)}
                  </td>
                  <td className="whitespace-nowrap px-4 py-2">
                    {canManage ? (
                      <div className="flex flex-wrap justify-end gap-2">
                        <Button type="button" variant="secondary" onClick={() => open(draftOfView(evaluator))}>
                          Edit
                        </Button>
                        <Button type="button" variant="secondary" disabled={pending} onClick={() => setEnabled(evaluator, !evaluator.enabled)}>
                          {evaluator.enabled ? "Disable" : "Enable"}
                        </Button>
                        <BackfillDialog evaluator={evaluator} onStarted={(text) => setMessage({ tone: "success", text })} />
                        <Button type="button" variant="danger" disabled={pending} onClick={() => remove(evaluator)}>
                          Delete
                        </Button>
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </div>
  );
}
