"use client";
// An agent's guardrails in the inspector: what each checks (the task, the final
// answer, a tool call or its result), with which check, and what it does when
// it trips; the validator's messages under each field, and a "try it" box.
import type { AgentConfig } from "@/lib/agents/schemas";
import type { GraphIssue } from "@/lib/agents/validate";
import { GUARDRAIL_ACTIONS, GUARDRAIL_KINDS, MASKABLE_CHECKS, type Guardrail, type GuardrailCheck } from "@/lib/guardrails/schemas";
import { CHECK_LABELS, CheckFields, starterCheck } from "./guardrail-check-fields";
import { GuardrailTryIt } from "./guardrail-try-it";
import { Field, FieldIssues, INPUT, NumberInput } from "./fields";

type Issues = { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] };

const KIND_LABELS: Record<Guardrail["kind"], string> = {
  input: "Input (the task and follow-ups)",
  output: "Output (the final answer)",
  tool_call: "Tool call (arguments, before it runs)",
  tool_result: "Tool result (before the model sees it)",
};

const ACTION_LABELS: Record<Guardrail["action"], string> = {
  block: "Block (end the run with the reason)",
  mask: "Mask what was found and go on",
  rewrite: "Ask the model to rewrite (output)",
  inbox: "Hold for an approver in the inbox (tool call)",
  log: "Log only",
};

const isToolKind = (kind: Guardrail["kind"]) => kind === "tool_call" || kind === "tool_result";

/** The first `guardrail-<n>` name the agent does not use yet. */
function freeName(guardrails: readonly Guardrail[]): string {
  for (let n = guardrails.length + 1; ; n += 1) if (!guardrails.some((g) => g.name === `guardrail-${n}`)) return `guardrail-${n}`;
}

/** The guardrail with its kind changed, dropping what only the old kind may have (tools, parallel). */
function withKind(guardrail: Guardrail, kind: Guardrail["kind"]): Guardrail {
  const { tools, ...rest } = guardrail;
  return { ...rest, kind, ...(isToolKind(kind) && tools ? { tools } : {}), parallel: kind === "input" ? guardrail.parallel : false };
}

export function GuardrailsSection(props: { agent: AgentConfig; index: number; toolNames: readonly string[]; issues: Issues; readOnly: boolean; onChange: (guardrails: Guardrail[], key: string) => void }) {
  const { agent, index, toolNames, issues, readOnly, onChange } = props;
  const base = `agents[${index}].guardrails`;
  const set = (g: number, next: Guardrail, field: string) => onChange(agent.guardrails.map((x, k) => (k === g ? next : x)), `guardrail:${g}:${field}`);
  return (
    <section className="space-y-2" aria-label="Guardrails" data-testid="guardrails">
      <h3 className="text-xs font-medium text-zinc-700">Guardrails</h3>
      <p className="text-[11px] text-zinc-500">Checks on what comes in, what goes out and each tool call. Regex, deny-list, PII and length checks run inside the run itself; a judge, a JSON schema and custom checks run on the worker.</p>
      <WholeGuardrailIssues issues={issues} base={base} />
      {agent.guardrails.map((guardrail, g) => {
        const path = `${base}[${g}]`;
        const idPrefix = `guardrail-${index}-${g}`;
        return (
          <fieldset key={g} className="space-y-2 rounded-md border border-zinc-200 p-2" aria-label={`Guardrail ${g + 1}`}>
            <Field id={`${idPrefix}-name`} label="Guardrail name" path={`${path}.name`} issues={issues}>
              <input id={`${idPrefix}-name`} className={`${INPUT} font-mono`} value={guardrail.name} disabled={readOnly} onChange={(e) => set(g, { ...guardrail, name: e.target.value }, "name")} />
            </Field>
            <div className="grid grid-cols-2 gap-2">
              <Field id={`${idPrefix}-kind`} label="Checks" path={`${path}.kind`} issues={issues}>
                <select id={`${idPrefix}-kind`} className={INPUT} value={guardrail.kind} disabled={readOnly} onChange={(e) => set(g, withKind(guardrail, e.target.value as Guardrail["kind"]), "kind")}>
                  {GUARDRAIL_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {KIND_LABELS[kind]}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id={`${idPrefix}-type`} label="Check" path={`${path}.check.type`} issues={issues}>
                <select id={`${idPrefix}-type`} className={INPUT} value={guardrail.check.type} disabled={readOnly} onChange={(e) => set(g, { ...guardrail, check: starterCheck(e.target.value as GuardrailCheck["type"]) }, "type")}>
                  {(Object.keys(CHECK_LABELS) as GuardrailCheck["type"][]).map((type) => (
                    <option key={type} value={type}>
                      {CHECK_LABELS[type]}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
            <CheckFields check={guardrail.check} path={`${path}.check`} idPrefix={idPrefix} issues={issues} readOnly={readOnly} onChange={(check, field) => set(g, { ...guardrail, check }, `check:${field}`)} />
            <Field id={`${idPrefix}-action`} label="When it trips" path={`${path}.action`} issues={issues}>
              <select id={`${idPrefix}-action`} className={INPUT} value={guardrail.action} disabled={readOnly} onChange={(e) => set(g, { ...guardrail, action: e.target.value as Guardrail["action"] }, "action")}>
                {GUARDRAIL_ACTIONS.map((action) => (
                  <option key={action} value={action}>
                    {ACTION_LABELS[action]}
                    {action === "mask" && !MASKABLE_CHECKS.includes(guardrail.check.type) ? " — needs a regex, deny-list or PII check" : ""}
                  </option>
                ))}
              </select>
            </Field>
            {guardrail.action === "rewrite" ? (
              <Field id={`${idPrefix}-rewrites`} label="Rewrites before the run is blocked" path={`${path}.maxRewrites`} issues={issues}>
                <NumberInput id={`${idPrefix}-rewrites`} value={guardrail.maxRewrites} disabled={readOnly} onChange={(maxRewrites) => set(g, { ...guardrail, maxRewrites }, "maxRewrites")} />
              </Field>
            ) : null}
            {guardrail.kind === "input" || guardrail.parallel ? (
              <label className="flex items-center gap-2 text-xs text-zinc-700">
                <input type="checkbox" checked={guardrail.parallel} disabled={readOnly} onChange={(e) => set(g, { ...guardrail, parallel: e.target.checked }, "parallel")} />
                Run beside the first model call and cancel it when it trips (fail fast)
              </label>
            ) : null}
            <FieldIssues issues={issues} path={`${path}.parallel`} />
            {isToolKind(guardrail.kind) || guardrail.tools ? <ToolsField guardrail={guardrail} path={path} toolNames={toolNames} issues={issues} readOnly={readOnly} onChange={(next) => set(g, next, "tools")} /> : null}
            {readOnly ? null : (
              <button type="button" className="text-xs text-red-700 hover:underline" onClick={() => onChange(agent.guardrails.filter((_, k) => k !== g), "guardrails:remove")}>
                Remove guardrail
              </button>
            )}
          </fieldset>
        );
      })}
      {readOnly ? null : (
        <button
          type="button"
          className="text-xs font-medium text-indigo-700 hover:underline"
          onClick={() => onChange([...agent.guardrails, { name: freeName(agent.guardrails), kind: "input", check: starterCheck("pii"), action: "block", maxRewrites: 1, parallel: false }], "guardrails:add")}
        >
          Add guardrail
        </button>
      )}
      {agent.guardrails.length > 0 ? <GuardrailTryIt guardrails={agent.guardrails} /> : null}
    </section>
  );
}

/** Problems with the list or one guardrail as a whole (too many, an unknown field); each field's own show under it. */
function WholeGuardrailIssues({ issues, base }: { issues: Issues; base: string }) {
  const whole = (issue: GraphIssue) => issue.path === base || (issue.path.startsWith(base) && /^\[\d+\]$/.test(issue.path.slice(base.length)));
  const errors = issues.errors.filter(whole);
  if (errors.length === 0) return null;
  return (
    <ul className="space-y-0.5 text-xs text-red-700" data-testid="guardrails-issues">
      {errors.map((issue) => (
        <li key={`${issue.path}${issue.message}`}>
          {issue.path.slice(base.length) || "guardrails"}: {issue.message}
        </li>
      ))}
    </ul>
  );
}

/** The tools a tool guardrail watches: none ticked watches every tool. */
function ToolsField({ guardrail, path, toolNames, issues, readOnly, onChange }: { guardrail: Guardrail; path: string; toolNames: readonly string[]; issues: Issues; readOnly: boolean; onChange: (next: Guardrail) => void }) {
  const watched = guardrail.tools ?? [];
  const names = [...new Set([...toolNames, ...watched])];
  const toggle = (name: string, on: boolean) => {
    const tools = on ? [...watched, name] : watched.filter((t) => t !== name);
    const { tools: _omit, ...rest } = guardrail;
    onChange(tools.length ? { ...rest, tools } : rest);
  };
  return (
    <fieldset>
      <legend className="text-xs font-medium text-zinc-700">Tools it watches (none ticked: every tool)</legend>
      {names.length === 0 ? <p className="text-xs text-zinc-500">This agent has no tools yet.</p> : null}
      {names.map((name) => (
        <label key={name} className="flex items-center gap-1 text-xs">
          <input type="checkbox" disabled={readOnly} checked={watched.includes(name)} onChange={(e) => toggle(name, e.target.checked)} />
          <span className="font-mono">{name}</span>
        </label>
      ))}
      <FieldIssues issues={issues} path={`${path}.tools`} />
    </fieldset>
  );
}
