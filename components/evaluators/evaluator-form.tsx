"use client";
// Create or edit an online evaluator: the graph (and optionally a version or a
// label) whose runs it scores, its checks, what it expects of an answer, the
// sampling rate, the delay, the daily spend cap and a dataset rule. Every field
// says what is wrong with it while it is typed (the contract's own schema,
// lib/online-eval/draft.ts); the server's answer is shown the same way.
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { MAX_EVALUATOR_CHECKS } from "@/lib/online-eval/schemas";
import { emptyCheck, type CheckDraft, type EvaluatorDraft } from "@/lib/online-eval/draft";
import { CheckEditor } from "./check-editor";

type Field = keyof Omit<EvaluatorDraft, "editing" | "checks" | "enabled" | "target">;

function TextField({ name, label, draft, issues, onChange, hint, disabled, list }: { name: Field; label: string; draft: EvaluatorDraft; issues: Map<string, string>; onChange: (patch: Partial<EvaluatorDraft>) => void; hint?: string; disabled?: boolean; list?: string }) {
  const id = `evaluator-${name}`;
  const issueKey = name === "datasetRuleDataset" ? "datasetRule.dataset" : name === "datasetRuleBelow" ? "datasetRule.below" : name === "expectedOutput" ? "expectations.output" : name;
  const message = issues.get(issueKey);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-zinc-700">
        {label}
      </label>
      <Input id={id} list={list} value={draft[name]} disabled={disabled} onChange={(e) => onChange({ [name]: e.target.value })} aria-invalid={message ? true : undefined} aria-describedby={message ? `${id}-error` : undefined} />
      {hint && !message ? <p className="mt-0.5 text-xs text-zinc-500">{hint}</p> : null}
      {message ? (
        <p id={`${id}-error`} className="mt-0.5 text-xs text-red-700" role="alert" data-testid="field-error">
          {message}
        </p>
      ) : null}
    </div>
  );
}

export function EvaluatorForm({ draft, issues, graphs, pending, onChange, onSave, onCancel }: { draft: EvaluatorDraft; issues: Map<string, string>; graphs: string[]; pending: boolean; onChange: (patch: Partial<EvaluatorDraft>) => void; onSave: () => void; onCancel: () => void }) {
  const editing = draft.editing !== null;
  const setCheck = (index: number, patch: Partial<CheckDraft>) => onChange({ checks: draft.checks.map((c, i) => (i === index ? { ...c, ...patch } : c)) });
  const field = (name: Field, label: string, extra: { hint?: string; disabled?: boolean; list?: string } = {}) => <TextField name={name} label={label} draft={draft} issues={issues} onChange={onChange} {...extra} />;
  return (
    <form
      aria-label={editing ? `Edit ${draft.name}` : "New evaluator"}
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {field("name", "Name", { disabled: editing, hint: "lowercase letters, digits, - and _" })}
        {field("graph", "Graph", { disabled: editing, list: "evaluator-graphs" })}
        <datalist id="evaluator-graphs">
          {graphs.map((g) => (
            <option key={g} value={g} />
          ))}
        </datalist>
        {field("version", "Only version (optional)")}
        {field("label", "Only label (optional)", { hint: "e.g. production" })}
        {field("samplingPercent", "Sampling (%)")}
        {field("delaySeconds", "Delay (seconds after the run ends)")}
        {field("dailySpendCapUsd", "Daily spend cap (US$, optional)")}
        <div>
          <label htmlFor="evaluator-target" className="mb-1 block text-xs font-medium text-zinc-700">
            Scores
          </label>
          <Select id="evaluator-target" value={draft.target} onChange={(e) => onChange({ target: e.target.value as EvaluatorDraft["target"] })}>
            <option value="run">each run</option>
            <option value="conversation">each conversation (with follow-ups)</option>
          </Select>
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {field("description", "Description (optional)")}
        {field("expectedOutput", "Expected answer (optional)", { hint: "for exact and contains; without one they do not decide" })}
        {field("datasetRuleDataset", "Add low-scored runs to dataset (optional)")}
        {field("datasetRuleBelow", "…when the mean is below (0–1)")}
      </div>
      <div className="space-y-2">
        <p className="text-sm font-medium text-zinc-800">Checks</p>
        {issues.get("checks") ? (
          <p className="text-xs text-red-700" role="alert" data-testid="field-error">
            {issues.get("checks")}
          </p>
        ) : null}
        {draft.checks.map((check, index) => (
          <CheckEditor
            key={index}
            index={index}
            draft={check}
            issues={issues}
            onChange={(patch) => setCheck(index, patch)}
            onRemove={draft.checks.length > 1 ? () => onChange({ checks: draft.checks.filter((_, i) => i !== index) }) : undefined}
          />
        ))}
        {draft.checks.length < MAX_EVALUATOR_CHECKS ? (
          <Button type="button" variant="secondary" onClick={() => onChange({ checks: [...draft.checks, emptyCheck("scorer:contains")] })}>
            Add a check
          </Button>
        ) : null}
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={draft.enabled} onChange={(e) => onChange({ enabled: e.target.checked })} />
        Enabled
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={pending}>
          {editing ? "Save evaluator" : "Create evaluator"}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        {issues.size > 0 ? <span className="text-xs text-zinc-500">{issues.size === 1 ? "One field needs a change" : `${issues.size} fields need a change`}</span> : null}
      </div>
    </form>
  );
}
