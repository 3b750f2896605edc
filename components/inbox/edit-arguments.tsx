"use client";
import { useId, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { argumentProblems, fieldsOf, formatField, parseField, type FieldSpec } from "@/lib/inbox/arguments";
import { ArgsDiff } from "./args-diff";
import { isSubmitChord } from "./use-inbox-keys";

/** The keys of the reason and edit forms, shown beside their buttons. */
export const SUBMIT_HINT = "Ctrl+Enter (⌘+Enter) sends · Esc cancels";

type Parsed = { args: Record<string, unknown>; problems: string[] };

function fromForm(fields: FieldSpec[], values: Record<string, string>, original: Record<string, unknown>): Parsed {
  // Arguments the schema does not describe are kept as they were.
  const known = new Set(fields.map((f) => f.name));
  const args: Record<string, unknown> = Object.fromEntries(Object.entries(original).filter(([k]) => !known.has(k)));
  const problems: string[] = [];
  for (const field of fields) {
    const { value, problem } = parseField(field, values[field.name] ?? "");
    if (problem) problems.push(problem);
    else if (value !== undefined) args[field.name] = value;
  }
  return { args, problems };
}

function fromRaw(raw: string): Parsed {
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== "object" || Array.isArray(value)) return { args: {}, problems: ["the arguments must be a JSON object"] };
    return { args: value as Record<string, unknown>, problems: [] };
  } catch {
    return { args: {}, problems: ["not valid JSON"] };
  }
}

/**
 * Edits a call's arguments in a form generated from the tool's JSON schema, or
 * as raw JSON (always for tools without a known schema); checks them as the
 * workflow will before they are sent, and shows the diff against the request.
 */
export function EditArguments({
  schema,
  original,
  pending,
  onSubmit,
  onCancel,
}: {
  schema: Record<string, unknown> | null;
  original: Record<string, unknown>;
  pending: boolean;
  /** `byKey`: sent with Ctrl/Cmd+Enter rather than the button (the inbox holds those for its undo window). */
  onSubmit: (edited: Record<string, unknown>, byKey: boolean) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const fields = useMemo(() => (schema ? fieldsOf(schema) : []), [schema]);
  const [mode, setMode] = useState<"form" | "raw">(fields.length ? "form" : "raw");
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, formatField(f, original[f.name])])));
  const [raw, setRaw] = useState(() => JSON.stringify(original, null, 2));
  const [showProblems, setShowProblems] = useState(false);

  const parsed = mode === "form" ? fromForm(fields, values, original) : fromRaw(raw);
  const problems = parsed.problems.length ? parsed.problems : argumentProblems(parsed.args, schema);

  function submit(byKey: boolean) {
    setShowProblems(true);
    if (problems.length === 0 && !pending) onSubmit(parsed.args, byKey);
  }

  function switchTo(next: "form" | "raw") {
    if (next === mode) return;
    if (next === "raw") setRaw(JSON.stringify(parsed.args, null, 2));
    else if (!parsed.problems.length) setValues(Object.fromEntries(fields.map((f) => [f.name, formatField(f, parsed.args[f.name])])));
    setMode(next);
  }

  return (
    <form
      aria-label="Edit arguments"
      className="space-y-3 rounded-md border border-zinc-200 bg-zinc-50 p-3"
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
        else if (isSubmitChord(event)) {
          event.preventDefault();
          submit(true);
        } else if (event.key === "Enter" && event.target instanceof HTMLInputElement) {
          // Enter in a field never sends a decision that moves money: Ctrl/Cmd+Enter or the button does.
          event.preventDefault();
        }
      }}
      onSubmit={(event) => {
        event.preventDefault();
        submit(false);
      }}
    >
      <div className="flex gap-2 text-xs" role="group" aria-label="Editor">
        <Button type="button" variant={mode === "form" ? "secondary" : "ghost"} disabled={!fields.length} onClick={() => switchTo("form")}>
          Form
        </Button>
        <Button type="button" variant={mode === "raw" ? "secondary" : "ghost"} onClick={() => switchTo("raw")}>
          Raw JSON
        </Button>
      </div>
      {mode === "form" ? (
        <div className="grid gap-2 sm:grid-cols-2">
          {fields.map((field, index) => {
            const inputId = `${id}-${field.name}`;
            const set = (v: string) => setValues((current) => ({ ...current, [field.name]: v }));
            return (
              <div key={field.name} className="space-y-1">
                <label htmlFor={inputId} className="block font-mono text-xs text-zinc-700">
                  {field.name}
                  {field.required ? " *" : ""}
                </label>
                {field.kind === "enum" || field.kind === "boolean" ? (
                  <Select id={inputId} autoFocus={index === 0} value={values[field.name] ?? ""} onChange={(e) => set(e.target.value)}>
                    {!field.required && <option value="">—</option>}
                    {(field.kind === "boolean" ? ["true", "false"] : (field.options ?? [])).map((o) => (
                      <option key={o} value={o}>
                        {o}
                      </option>
                    ))}
                  </Select>
                ) : (
                  <Input id={inputId} autoFocus={index === 0} inputMode={field.kind === "number" || field.kind === "integer" ? "decimal" : undefined} value={values[field.name] ?? ""} onChange={(e) => set(e.target.value)} />
                )}
                {field.description && <p className="text-xs text-zinc-500">{field.description}</p>}
              </div>
            );
          })}
        </div>
      ) : (
        <div className="space-y-1">
          <label htmlFor={`${id}-raw`} className="block text-xs text-zinc-700">
            Arguments (JSON)
          </label>
          <textarea id={`${id}-raw`} autoFocus className="h-40 w-full rounded-md border border-zinc-300 p-2 font-mono text-xs" value={raw} onChange={(e) => setRaw(e.target.value)} spellCheck={false} />
        </div>
      )}
      {showProblems && problems.length > 0 && (
        <ul role="alert" className="list-disc pl-5 text-xs text-red-700">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {parsed.problems.length === 0 && <ArgsDiff before={original} after={parsed.args} />}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          Approve with edits
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <span className="text-xs text-zinc-500">{SUBMIT_HINT}</span>
      </div>
    </form>
  );
}
