"use client";
// An agent's output schema, in two views of the same schema: a field list and
// its JSON. Each view keeps what is being typed as a draft tied to the schema
// it was typed over, so invalid JSON or a half-named field is never lost while
// the graph holds the last valid schema; an outside change (undo) shows anew.
import { useState } from "react";
import { MAX_OUTPUT_SCHEMA_BYTES, type OutputSchemaConfig } from "@/lib/agents/schemas";
import { parseJsonObject } from "@/lib/runs/context-json";
import { JsonEditor } from "@/components/runs/json-editor";
import { FieldIssues, INPUT } from "./fields";
import { FIELD_TYPES, blankField, fieldProblems, fieldsToSchema, schemaToFields, updateField, type FieldType, type SchemaField } from "./schema-fields";
import type { GraphIssue } from "@/lib/agents/validate";

type Schema = OutputSchemaConfig["schema"];
type Issues = { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] };

const STARTER: Schema = { type: "object", properties: { answer: { type: "string", description: "the answer in one sentence" } }, required: ["answer"] };

const TYPE_LABEL = (type: FieldType) => (type.startsWith("array:") ? `array of ${type.slice(6)}` : type);

interface FieldRowsProps {
  rows: readonly SchemaField[];
  problems: ReadonlyMap<string, string>;
  readOnly: boolean;
  depth: number;
  onRows: (change: (rows: SchemaField[]) => SchemaField[]) => void;
  onAdd: (parentKey: string | null) => void;
}

function FieldRows({ rows, problems, readOnly, depth, onRows, onAdd }: FieldRowsProps) {
  const change = (key: string, next: Partial<SchemaField>) => onRows((all) => updateField(all, key, (row) => ({ ...row, ...next })));
  return (
    <ul className={depth > 0 ? "ml-3 space-y-2 border-l border-zinc-200 pl-2" : "space-y-2"}>
      {rows.map((row) => {
        const label = row.name || "new field";
        const nested = row.type === "object" || row.type === "array:object";
        const problem = problems.get(row.key);
        return (
          <li key={row.key} className="space-y-1 rounded border border-zinc-200 p-2" data-testid="schema-field">
            <div className="flex items-center gap-1">
              <input aria-label="Field name" className={`${INPUT} font-mono`} value={row.name} placeholder="name" disabled={readOnly} onChange={(e) => change(row.key, { name: e.target.value.trim() })} />
              <select aria-label={`Type of ${label}`} className={`${INPUT} w-36`} value={row.type} disabled={readOnly} onChange={(e) => change(row.key, { type: e.target.value as FieldType })}>
                {FIELD_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {TYPE_LABEL(t)}
                  </option>
                ))}
              </select>
              <button type="button" aria-label={`Remove ${label}`} className="px-1 text-zinc-500 hover:text-red-700 disabled:opacity-40" disabled={readOnly} onClick={() => onRows((all) => updateField(all, row.key, () => null))}>
                ×
              </button>
            </div>
            <div className="flex items-center gap-2 text-xs">
              <label className="flex items-center gap-1">
                <input type="checkbox" checked={row.required} disabled={readOnly} onChange={(e) => change(row.key, { required: e.target.checked })} />
                required
              </label>
              {row.type === "string" || row.type === "number" || row.type === "integer" ? (
                <input aria-label={`Allowed values of ${label}`} className={INPUT} placeholder="allowed values, comma-separated (any when empty)" value={row.enumText} disabled={readOnly} onChange={(e) => change(row.key, { enumText: e.target.value })} />
              ) : null}
            </div>
            <input aria-label={`Description of ${label}`} className={INPUT} placeholder="description (the model reads it)" value={row.description} disabled={readOnly} onChange={(e) => change(row.key, { description: e.target.value })} />
            {problem ? <p className="text-xs text-red-700">{problem}</p> : null}
            {nested ? (
              <div className="space-y-1">
                <p className="text-[11px] text-zinc-500">{row.type === "object" ? "Its fields:" : "Fields of each item:"}</p>
                <FieldRows rows={row.fields} problems={problems} readOnly={readOnly} depth={depth + 1} onRows={onRows} onAdd={onAdd} />
                <button type="button" className="text-xs text-indigo-600 hover:underline disabled:text-zinc-400" disabled={readOnly} onClick={() => onAdd(row.key)}>
                  + Field in {label}
                </button>
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

export interface OutputSchemaEditorProps {
  value: OutputSchemaConfig | undefined;
  /** Path of the agent in the graph (`agents[2]`), for the validator's messages. */
  base: string;
  issues: Issues;
  readOnly: boolean;
  onChange: (next: OutputSchemaConfig | undefined, key: string) => void;
}

export function OutputSchemaEditor({ value, base, issues, readOnly, onChange }: OutputSchemaEditorProps) {
  const [view, setView] = useState<"fields" | "json">("fields");
  const [jsonDraft, setJsonDraft] = useState<{ text: string; over: Schema } | null>(null);
  const [rowsDraft, setRowsDraft] = useState<{ rows: SchemaField[]; over: Schema } | null>(null);
  if (!value) {
    return (
      <section className="space-y-1" data-testid="output-schema">
        <h3 className="text-xs font-medium text-zinc-700">Output schema</h3>
        <p className="text-xs text-zinc-500">Without one the agent answers in free text.</p>
        <button type="button" className="rounded px-2 py-1 text-xs ring-1 ring-zinc-300 disabled:opacity-40" disabled={readOnly} onClick={() => onChange({ schema: STARTER, strict: false }, "outputSchema:add")}>
          Add output schema
        </button>
        <FieldIssues issues={issues} path={`${base}.outputSchema`} />
      </section>
    );
  }
  const schema = value.schema;
  const setSchema = (next: Schema, key: string) => onChange({ ...value, schema: next }, key);

  const text = jsonDraft && jsonDraft.over === schema ? jsonDraft.text : JSON.stringify(schema, null, 2);
  const parsedText = parseJsonObject(text);
  const onText = (next: string) => {
    const parsed = parseJsonObject(next);
    if (parsed.ok) {
      setJsonDraft({ text: next, over: parsed.value });
      setSchema(parsed.value, "outputSchema:json");
    } else setJsonDraft({ text: next, over: schema });
  };

  const read = schemaToFields(schema);
  const rows = rowsDraft && rowsDraft.over === schema ? rowsDraft.rows : read.ok ? read.fields : null;
  const problems = fieldProblems(rows ?? []);
  const onRows = (change: (rows: SchemaField[]) => SchemaField[]) => {
    const next = change(rows ?? []);
    const nextSchema = fieldsToSchema(next, schema);
    setRowsDraft({ rows: next, over: nextSchema });
    setSchema(nextSchema, "outputSchema:fields");
  };
  const onAdd = (parentKey: string | null) =>
    onRows((all) => (parentKey === null ? [...all, blankField()] : updateField(all, parentKey, (row) => ({ ...row, fields: [...row.fields, blankField()] }))));

  const size = JSON.stringify(schema).length;
  const tab = (id: "fields" | "json", label: string, disabled: boolean) => (
    <button type="button" role="tab" aria-selected={view === id} disabled={disabled} onClick={() => setView(id)} className={`rounded px-2 py-0.5 text-xs ${view === id ? "bg-indigo-600 text-white" : "text-zinc-700 ring-1 ring-zinc-300"} disabled:opacity-40`}>
      {label}
    </button>
  );
  return (
    <section className="space-y-2" data-testid="output-schema" aria-label="Output schema">
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-medium text-zinc-700">Output schema</h3>
        <div role="tablist" aria-label="Output schema view" className="flex gap-1">
          {tab("fields", "Fields", !parsedText.ok)}
          {tab("json", "JSON", false)}
        </div>
      </div>
      {!parsedText.ok ? <p className="text-xs text-amber-700">The JSON does not parse: the agent keeps its last valid schema, and your text stays here until you fix it.</p> : null}
      {view === "json" ? (
        <JsonEditor label="Output schema (JSON)" value={text} onChange={onText} rows={10} />
      ) : rows ? (
        <div className="space-y-2">
          <FieldRows rows={rows} problems={problems} readOnly={readOnly} depth={0} onRows={onRows} onAdd={onAdd} />
          <button type="button" className="text-xs text-indigo-600 hover:underline disabled:text-zinc-400" disabled={readOnly} onClick={() => onAdd(null)}>
            + Field
          </button>
        </div>
      ) : (
        <p className="text-xs text-zinc-600" data-testid="fields-unavailable">
          The field list cannot show this schema ({read.ok ? "" : read.reason}); edit it in the JSON view.
        </p>
      )}
      <label className="flex items-center gap-2 text-xs text-zinc-700">
        <input type="checkbox" checked={value.strict} disabled={readOnly} onChange={(e) => onChange({ ...value, strict: e.target.checked }, "outputSchema:strict")} />
        Strict: refuse extra fields
      </label>
      <p className="text-[11px] text-zinc-500">Lenient (default) accepts fields the schema does not name (models add them); strict refuses any such field.</p>
      <p className={`text-[11px] ${size > MAX_OUTPUT_SCHEMA_BYTES ? "font-semibold text-red-700" : "text-zinc-500"}`} data-testid="schema-size">
        {(size / 1024).toFixed(1)} KB of {MAX_OUTPUT_SCHEMA_BYTES / 1024} KB
      </p>
      <FieldIssues issues={issues} path={`${base}.outputSchema`} />
      <button type="button" className="text-xs text-red-700 hover:underline disabled:text-zinc-400" disabled={readOnly} onClick={() => onChange(undefined, "outputSchema:remove")}>
        Remove output schema
      </button>
    </section>
  );
}
