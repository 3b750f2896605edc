"use client";
// The fields of one guardrail's check, by check type. Lists typed as text (deny-list
// terms, a JSON schema) keep what is being typed as a draft tied to the value it
// was typed over, as the output schema editor does, so a blank line or half-typed
// JSON is never lost while the graph holds the last usable value.
import { useState } from "react";
import { CUSTOM_CHECKS, mcpCheckName, mcpCheckOf } from "@/lib/guardrails/custom-checks";
import { PII_DETECTORS, type GuardrailCheck, type PiiDetector } from "@/lib/guardrails/schemas";
import { parseJsonObject } from "@/lib/runs/context-json";
import { Field, FieldIssues, INPUT, NumberInput } from "./fields";
import { useMcpRegistry } from "./mcp-settings";
import type { GraphIssue } from "@/lib/agents/validate";

type Issues = { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] };

export const CHECK_LABELS: Record<GuardrailCheck["type"], string> = {
  pii: "PII (emails, phones, cards, IBANs, API keys)",
  regex: "Regular expression",
  deny_list: "Deny-list of words or phrases",
  max_length: "Maximum length",
  json_schema: "JSON schema",
  judge: "Model judge with a rubric",
  custom: "Registered custom check",
};

export const PII_LABELS: Record<PiiDetector, string> = {
  email: "Email addresses",
  phone: "Phone numbers",
  card: "Card numbers (Luhn-checked)",
  iban: "IBANs (mod-97-checked)",
  api_key: "API keys and credentials",
};

/** A new check of `type`, ready to save, for when the builder switches type. */
export function starterCheck(type: GuardrailCheck["type"]): GuardrailCheck {
  switch (type) {
    case "pii":
      return { type, detectors: [...PII_DETECTORS] };
    case "regex":
      return { type, pattern: "\\bconfidential\\b", caseInsensitive: true };
    case "deny_list":
      return { type, terms: ["confidential"], caseSensitive: false };
    case "max_length":
      return { type, chars: 4000 };
    case "json_schema":
      return { type, schema: { type: "object" } };
    case "judge":
      return { type, rubric: "The text is polite, on topic and makes no promise the company cannot keep.", passAt: 0.5 };
    case "custom":
      return { type, check: CUSTOM_CHECKS[0]?.name ?? "prompt_injection" };
  }
}

interface CheckFieldsProps {
  check: GuardrailCheck;
  /** `agents[0].guardrails[1].check`, for the validator's messages. */
  path: string;
  /** Prefix of element ids, unique per guardrail. */
  idPrefix: string;
  issues: Issues;
  readOnly: boolean;
  onChange: (check: GuardrailCheck, field: string) => void;
}

export function CheckFields({ check, path, idPrefix, issues, readOnly, onChange }: CheckFieldsProps) {
  switch (check.type) {
    case "pii":
      return (
        <fieldset>
          <legend className="text-xs font-medium text-zinc-700">Detect</legend>
          {PII_DETECTORS.map((detector) => (
            <label key={detector} className="flex items-center gap-1 text-xs">
              <input
                type="checkbox"
                disabled={readOnly}
                checked={check.detectors.includes(detector)}
                onChange={(e) => onChange({ ...check, detectors: e.target.checked ? PII_DETECTORS.filter((d) => d === detector || check.detectors.includes(d)) : check.detectors.filter((d) => d !== detector) }, `pii:${detector}`)}
              />
              {PII_LABELS[detector]}
            </label>
          ))}
          <FieldIssues issues={issues} path={`${path}.detectors`} />
        </fieldset>
      );
    case "regex":
      return (
        <>
          <Field id={`${idPrefix}-pattern`} label="Pattern (RE2: no backreferences or lookaround)" path={`${path}.pattern`} issues={issues}>
            <input id={`${idPrefix}-pattern`} className={`${INPUT} font-mono`} value={check.pattern} disabled={readOnly} onChange={(e) => onChange({ ...check, pattern: e.target.value }, "pattern")} />
          </Field>
          <label className="flex items-center gap-1 text-xs">
            <input type="checkbox" disabled={readOnly} checked={check.caseInsensitive} onChange={(e) => onChange({ ...check, caseInsensitive: e.target.checked }, "caseInsensitive")} />
            Ignore case
          </label>
        </>
      );
    case "deny_list":
      return <DenyListFields check={check} path={path} idPrefix={idPrefix} issues={issues} readOnly={readOnly} onChange={onChange} />;
    case "max_length":
      return (
        <Field id={`${idPrefix}-chars`} label="At most (characters)" path={`${path}.chars`} issues={issues}>
          <NumberInput id={`${idPrefix}-chars`} value={check.chars} disabled={readOnly} onChange={(chars) => onChange({ ...check, chars }, "chars")} />
        </Field>
      );
    case "json_schema":
      return <JsonSchemaFields check={check} path={path} idPrefix={idPrefix} issues={issues} readOnly={readOnly} onChange={onChange} />;
    case "judge":
      return (
        <>
          <Field id={`${idPrefix}-rubric`} label="Rubric (what a passing text does)" path={`${path}.rubric`} issues={issues}>
            <textarea id={`${idPrefix}-rubric`} rows={3} className={INPUT} value={check.rubric} disabled={readOnly} onChange={(e) => onChange({ ...check, rubric: e.target.value }, "rubric")} />
          </Field>
          <div className="grid grid-cols-2 gap-2">
            <Field id={`${idPrefix}-model`} label="Judge model" path={`${path}.model`} issues={issues}>
              <input
                id={`${idPrefix}-model`}
                className={`${INPUT} font-mono`}
                placeholder="the agent's model"
                value={check.model ?? ""}
                disabled={readOnly}
                onChange={(e) => {
                  const { model: _omit, ...rest } = check;
                  onChange(e.target.value ? { ...rest, model: e.target.value } : rest, "model");
                }}
              />
            </Field>
            <Field id={`${idPrefix}-pass-at`} label="Passes at score (0–1)" path={`${path}.passAt`} issues={issues}>
              <NumberInput id={`${idPrefix}-pass-at`} step={0.05} value={check.passAt} disabled={readOnly} onChange={(passAt) => onChange({ ...check, passAt }, "passAt")} />
            </Field>
          </div>
        </>
      );
    case "custom":
      return <CustomCheckField check={check} path={path} idPrefix={idPrefix} issues={issues} readOnly={readOnly} onChange={onChange} />;
  }
}

type DenyList = Extract<GuardrailCheck, { type: "deny_list" }>;
type JsonSchemaCheck = Extract<GuardrailCheck, { type: "json_schema" }>;

function DenyListFields({ check, path, idPrefix, issues, readOnly, onChange }: Omit<CheckFieldsProps, "check"> & { check: DenyList }) {
  const [draft, setDraft] = useState<{ text: string; over: string[] } | null>(null);
  const text = draft && draft.over === check.terms ? draft.text : check.terms.join("\n");
  return (
    <>
      <Field id={`${idPrefix}-terms`} label="Denied words or phrases (one a line)" path={`${path}.terms`} issues={issues}>
        <textarea
          id={`${idPrefix}-terms`}
          rows={3}
          className={INPUT}
          value={text}
          disabled={readOnly}
          onChange={(e) => {
            const terms = e.target.value.split("\n").map((term) => term.trim()).filter((term) => term.length > 0);
            setDraft({ text: e.target.value, over: terms });
            onChange({ ...check, terms }, "terms");
          }}
        />
      </Field>
      <label className="flex items-center gap-1 text-xs">
        <input type="checkbox" disabled={readOnly} checked={check.caseSensitive} onChange={(e) => onChange({ ...check, caseSensitive: e.target.checked }, "caseSensitive")} />
        Match case
      </label>
    </>
  );
}

function JsonSchemaFields({ check, path, idPrefix, issues, readOnly, onChange }: Omit<CheckFieldsProps, "check"> & { check: JsonSchemaCheck }) {
  const [draft, setDraft] = useState<{ text: string; over: JsonSchemaCheck["schema"] } | null>(null);
  const text = draft && draft.over === check.schema ? draft.text : JSON.stringify(check.schema, null, 2);
  const parsed = parseJsonObject(text);
  return (
    <Field id={`${idPrefix}-schema`} label="JSON schema the text must match (checked on the server when saved)" path={`${path}.schema`} issues={issues}>
      <textarea
        id={`${idPrefix}-schema`}
        rows={5}
        className={`${INPUT} font-mono`}
        value={text}
        disabled={readOnly}
        onChange={(e) => {
          const next = parseJsonObject(e.target.value);
          if (next.ok) {
            setDraft({ text: e.target.value, over: next.value });
            onChange({ ...check, schema: next.value }, "schema");
          } else setDraft({ text: e.target.value, over: check.schema });
        }}
      />
      {parsed.ok ? null : <p className="mt-0.5 text-xs text-red-700">Not a JSON object yet: the last valid schema is kept.</p>}
    </Field>
  );
}

type CustomCheck = Extract<GuardrailCheck, { type: "custom" }>;

/** The built-in checks, then each tool an admin offers as a check on a registered MCP server ("kb__screen_text"). */
function CustomCheckField({ check, path, idPrefix, issues, readOnly, onChange }: Omit<CheckFieldsProps, "check"> & { check: CustomCheck }) {
  const registry = useMcpRegistry();
  const offered = [
    ...CUSTOM_CHECKS,
    ...(registry?.servers ?? []).flatMap((server) =>
      server.guardrailTools.map((tool) => ({ name: mcpCheckName(server.name, tool), description: `The tool ${tool} of the MCP server ${server.name}, offered as a check by an admin: it gets the text and answers whether it trips.` })),
    ),
  ];
  const chosen = offered.find((known) => known.name === check.check);
  const unknown = mcpCheckOf(check.check)
    ? registry
      ? "Not offered as a check by that MCP server: the save is refused until an admin offers it (Admin › MCP servers)."
      : "A tool of an MCP server: checked against the registry when you save."
    : "Not a check the worker knows: a run would trip on it.";
  return (
    <Field id={`${idPrefix}-custom`} label="Custom check" path={`${path}.check`} issues={issues}>
      <select id={`${idPrefix}-custom`} className={INPUT} value={check.check} disabled={readOnly} onChange={(e) => onChange({ ...check, check: e.target.value }, "custom")}>
        {chosen ? null : <option value={check.check}>{mcpCheckOf(check.check) && !registry ? check.check : `${check.check} (not registered)`}</option>}
        {offered.map((known) => (
          <option key={known.name} value={known.name}>
            {known.name}
          </option>
        ))}
      </select>
      <p className="mt-0.5 text-[11px] text-zinc-500">{chosen?.description ?? unknown}</p>
    </Field>
  );
}
