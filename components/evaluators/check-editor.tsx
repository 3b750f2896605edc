"use client";
// One check of an evaluator in the form: a scorer kind (the judge with its
// rubric, contains, latency…) or a guardrail check (PII such as card numbers,
// a regex, a deny-list…) on the run's task or answer, with the fields that kind
// needs and the live message under each (lib/online-eval/draft.ts).
import { Input, Select } from "@/components/ui/input";
import { CHECK_CHOICES, PII_DETECTORS, type CheckChoice, type CheckDraft } from "@/lib/online-eval/draft";

function FieldError({ message, id }: { message: string | undefined; id: string }) {
  return message ? (
    <p id={id} className="mt-0.5 text-xs text-red-700" role="alert" data-testid="field-error">
      {message}
    </p>
  ) : null;
}

/** A text field of the check, with its label and message. */
function TextField({ index, name, label, draft, issues, onChange, placeholder, area }: { index: number; name: string; label: string; draft: CheckDraft; issues: Map<string, string>; onChange: (patch: Partial<CheckDraft>) => void; placeholder?: string; area?: boolean }) {
  const id = `check-${index}-${name}`;
  const path = `checks.${index}.${draft.choice.startsWith("scorer:") ? "scorer" : "check"}.${name}`;
  const message = issues.get(path);
  const common = {
    id,
    value: draft.fields[name] ?? "",
    placeholder,
    "aria-invalid": message ? true : undefined,
    "aria-describedby": message ? `${id}-error` : undefined,
  };
  const set = (value: string) => onChange({ fields: { ...draft.fields, [name]: value } });
  return (
    <div className={area ? "sm:col-span-2" : undefined}>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-zinc-700">
        {label}
      </label>
      {area ? (
        <textarea {...common} rows={3} onChange={(e) => set(e.target.value)} className="w-full rounded-md px-3 py-1.5 text-sm ring-1 ring-zinc-300 ring-inset" />
      ) : (
        <Input {...common} onChange={(e) => set(e.target.value)} />
      )}
      <FieldError message={message} id={`${id}-error`} />
    </div>
  );
}

export function CheckEditor({ index, draft, issues, onChange, onRemove }: { index: number; draft: CheckDraft; issues: Map<string, string>; onChange: (patch: Partial<CheckDraft>) => void; onRemove?: () => void }) {
  const [source, kind] = draft.choice.split(":") as ["scorer" | "guardrail", string];
  const field = (name: string, label: string, extra: { placeholder?: string; area?: boolean } = {}) => <TextField index={index} name={name} label={label} draft={draft} issues={issues} onChange={onChange} {...extra} />;
  const checkMessage = issues.get(`checks.${index}`);
  return (
    <fieldset className="space-y-2 rounded border border-zinc-200 p-3" data-testid={`check-${index}`}>
      <legend className="px-1 text-xs font-medium text-zinc-600">Check {index + 1}</legend>
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor={`check-${index}-kind`} className="mb-1 block text-xs font-medium text-zinc-700">
            Kind
          </label>
          <Select id={`check-${index}-kind`} value={draft.choice} onChange={(e) => onChange({ choice: e.target.value as CheckChoice, fields: {} })}>
            {CHECK_CHOICES.map((choice) => (
              <option key={choice.id} value={choice.id}>
                {choice.label}
              </option>
            ))}
          </Select>
        </div>
        {source === "guardrail" ? (
          <>
            <div>
              <label htmlFor={`check-${index}-name`} className="mb-1 block text-xs font-medium text-zinc-700">
                Score name
              </label>
              <Input id={`check-${index}-name`} value={draft.guardName} onChange={(e) => onChange({ guardName: e.target.value })} placeholder="no-card-numbers" aria-invalid={issues.has(`checks.${index}.name`) || undefined} />
            </div>
            <div>
              <label htmlFor={`check-${index}-on`} className="mb-1 block text-xs font-medium text-zinc-700">
                On
              </label>
              <Select id={`check-${index}-on`} value={draft.on} onChange={(e) => onChange({ on: e.target.value as "input" | "output" })}>
                <option value="output">the answer</option>
                <option value="input">the task</option>
              </Select>
            </div>
          </>
        ) : null}
        {onRemove ? (
          <button type="button" className="ml-auto text-xs text-red-700 hover:underline" onClick={onRemove} aria-label={`Remove check ${index + 1}`}>
            Remove
          </button>
        ) : null}
      </div>
      <FieldError message={issues.get(`checks.${index}.name`)} id={`check-${index}-name-error`} />
      <FieldError message={checkMessage} id={`check-${index}-error`} />
      <div className="grid gap-2 sm:grid-cols-2">
        {kind === "judge" ? (
          <>
            {field("rubric", "Rubric", { area: true, placeholder: "Score 1 when the answer resolves the customer's request politely, 0 otherwise" })}
            {field("model", "Judge model (optional)", { placeholder: "demo/judge" })}
            {source === "guardrail" ? field("passAt", "Passes at (0–1)", { placeholder: "0.5" }) : null}
          </>
        ) : null}
        {kind === "contains" ? field("text", "Text (empty: the expected answer)") : null}
        {kind === "json_field" ? (
          <>
            {field("path", "Field path", { placeholder: "answer.total" })}
            {field("equals", "Equals (JSON; empty: the expected value)")}
          </>
        ) : null}
        {kind === "json_schema" ? field("schema", "JSON Schema", { area: true, placeholder: '{"type": "object"}' }) : null}
        {kind === "latency" ? field("maxMs", "At most (ms)") : null}
        {kind === "tokens" ? field("max", "At most (tokens)") : null}
        {kind === "cost" ? field("maxUsd", "At most (US$)") : null}
        {kind === "custom" && source === "scorer" ? field("name", "Custom scorer") : null}
        {kind === "custom" && source === "guardrail" ? field("check", "Custom check") : null}
        {kind === "regex" ? field("pattern", "Pattern (trips when it matches)") : null}
        {kind === "deny_list" ? field("terms", "Terms (one a line or comma-separated)", { area: true }) : null}
        {kind === "max_length" ? field("chars", "At most (characters)") : null}
        {kind === "trajectory" ? (
          <div className="flex gap-2">
            <Select aria-label={`Check ${index + 1} order`} value={draft.order} onChange={(e) => onChange({ order: e.target.value as CheckDraft["order"] })}>
              <option value="unordered">any order</option>
              <option value="strict">strict order</option>
            </Select>
            <Select aria-label={`Check ${index + 1} arguments`} value={draft.args} onChange={(e) => onChange({ args: e.target.value as CheckDraft["args"] })}>
              <option value="ignore">ignore arguments</option>
              <option value="subset">arguments include</option>
              <option value="exact">arguments exact</option>
            </Select>
          </div>
        ) : null}
        {kind === "pii" ? (
          <div className="flex flex-wrap gap-3 text-sm sm:col-span-2" role="group" aria-label={`Check ${index + 1} detectors`}>
            {PII_DETECTORS.map((detector) => (
              <label key={detector} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={draft.detectors.includes(detector)}
                  onChange={(e) => onChange({ detectors: e.target.checked ? [...draft.detectors, detector] : draft.detectors.filter((d) => d !== detector) })}
                />
                {detector === "card" ? "card numbers" : detector.replace("_", " ")}
              </label>
            ))}
            <FieldError message={issues.get(`checks.${index}.check.detectors`)} id={`check-${index}-detectors-error`} />
          </div>
        ) : null}
        {kind === "exact" || kind === "regex" || kind === "deny_list" ? (
          <label className="flex items-center gap-1 text-sm">
            <input type="checkbox" checked={draft.caseSensitive} onChange={(e) => onChange({ caseSensitive: e.target.checked })} />
            case-sensitive
          </label>
        ) : null}
      </div>
    </fieldset>
  );
}
