// The evaluator form's draft (issue 40 §2): what the /evaluators form edits,
// as text fields, turned into the create or update input and checked live with
// the contract's own schemas (lib/online-eval/schemas.ts), so the form says
// what the server would refuse before it is sent. Pure and browser-safe.
import { formatPath, type FieldIssue } from "../errors";
import { PII_DETECTORS, type PiiDetector } from "../guardrails/schemas";
import { createEvaluatorInput, updateEvaluatorInput, type EvaluatorCheck, type EvaluatorView } from "./schemas";

/** What one check of the form is: a scorer kind, or a guardrail check on the input or the output. */
export const CHECK_CHOICES = [
  { id: "scorer:judge", label: "Judge (model with a rubric)" },
  { id: "scorer:contains", label: "Contains text" },
  { id: "scorer:exact", label: "Exact answer" },
  { id: "scorer:json_field", label: "Typed answer's field" },
  { id: "scorer:json_schema", label: "Typed answer matches a JSON Schema" },
  { id: "scorer:trajectory", label: "Tool calls (trajectory)" },
  { id: "scorer:routing", label: "Routing" },
  { id: "scorer:plan", label: "Plan" },
  { id: "scorer:recorded", label: "Recorded history only (no edited step)" },
  { id: "scorer:latency", label: "Latency at most" },
  { id: "scorer:tokens", label: "Tokens at most" },
  { id: "scorer:cost", label: "Cost at most" },
  { id: "scorer:custom", label: "Custom scorer" },
  { id: "guardrail:pii", label: "Guardrail: PII" },
  { id: "guardrail:regex", label: "Guardrail: regex" },
  { id: "guardrail:deny_list", label: "Guardrail: deny-list" },
  { id: "guardrail:max_length", label: "Guardrail: max length" },
  { id: "guardrail:json_schema", label: "Guardrail: JSON Schema" },
  { id: "guardrail:judge", label: "Guardrail: judge" },
  { id: "guardrail:custom", label: "Guardrail: custom check" },
] as const;
export type CheckChoice = (typeof CHECK_CHOICES)[number]["id"];

/** One check as typed: its choice and its fields as text (each choice reads the ones it needs). */
export interface CheckDraft {
  choice: CheckChoice;
  /** rubric, model, text, path, equals, schema, maxMs, max, maxUsd, name (custom scorer), pattern, terms, chars, passAt, check (custom guardrail). */
  fields: Record<string, string>;
  caseSensitive: boolean;
  detectors: PiiDetector[];
  order: "strict" | "unordered";
  args: "exact" | "subset" | "ignore";
  /** A guardrail check's score name (guardrail:<name>) and what it reads. */
  guardName: string;
  on: "input" | "output";
}

export interface EvaluatorDraft {
  /** The evaluator being edited (its name and graph are fixed then). */
  editing: string | null;
  name: string;
  description: string;
  graph: string;
  version: string;
  label: string;
  target: "run" | "conversation";
  checks: CheckDraft[];
  expectedOutput: string;
  /** Percent, 0..100. */
  samplingPercent: string;
  dailySpendCapUsd: string;
  delaySeconds: string;
  datasetRuleDataset: string;
  datasetRuleBelow: string;
  enabled: boolean;
}

export function emptyCheck(choice: CheckChoice = "scorer:judge"): CheckDraft {
  return { choice, fields: {}, caseSensitive: false, detectors: ["card"], order: "unordered", args: "ignore", guardName: "", on: "output" };
}

export const EMPTY_EVALUATOR_DRAFT: EvaluatorDraft = {
  editing: null,
  name: "",
  description: "",
  graph: "",
  version: "",
  label: "",
  target: "run",
  checks: [emptyCheck()],
  expectedOutput: "",
  samplingPercent: "100",
  dailySpendCapUsd: "",
  delaySeconds: "0",
  datasetRuleDataset: "",
  datasetRuleBelow: "",
  enabled: true,
};

/** A number typed in a field: NaN for text that is none (so the schema names the field), undefined when empty. */
function numberOf(text: string | undefined): number | undefined {
  const trimmed = (text ?? "").trim();
  return trimmed === "" ? undefined : Number(trimmed);
}

/** JSON typed in a field: the value, or the text itself when it does not parse (the schema then refuses it there). */
function jsonOf(text: string | undefined): unknown {
  const trimmed = (text ?? "").trim();
  if (trimmed === "") return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return trimmed;
  }
}

const defined = <T extends Record<string, unknown>>(object: T): T => Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;

/** One check of the draft as the contract's check (unchecked: the schema decides). */
export function checkOf(draft: CheckDraft): unknown {
  const f = draft.fields;
  const text = (key: string) => (f[key]?.trim() ? f[key]!.trim() : undefined);
  const [source, kind] = draft.choice.split(":") as ["scorer" | "guardrail", string];
  if (source === "scorer") {
    switch (kind) {
      case "judge":
        return { source, scorer: defined({ kind, rubric: f.rubric ?? "", model: text("model") }) };
      case "contains":
        return { source, scorer: defined({ kind, text: text("text") }) };
      case "exact":
        return { source, scorer: { kind, caseSensitive: draft.caseSensitive } };
      case "json_field":
        return { source, scorer: defined({ kind, path: f.path ?? "", equals: jsonOf(f.equals) }) };
      case "json_schema":
        return { source, scorer: { kind, schema: jsonOf(f.schema) ?? {} } };
      case "trajectory":
        return { source, scorer: { kind, order: draft.order, arguments: draft.args } };
      case "latency":
        return { source, scorer: { kind, maxMs: numberOf(f.maxMs) } };
      case "tokens":
        return { source, scorer: { kind, max: numberOf(f.max) } };
      case "cost":
        return { source, scorer: { kind, maxUsd: numberOf(f.maxUsd) } };
      case "custom":
        return { source, scorer: { kind, name: f.name ?? "" } };
      default:
        return { source, scorer: { kind } };
    }
  }
  const check = (() => {
    switch (kind) {
      case "pii":
        return { type: kind, detectors: draft.detectors };
      case "regex":
        return { type: kind, pattern: f.pattern ?? "", caseInsensitive: !draft.caseSensitive };
      case "deny_list":
        return { type: kind, terms: (f.terms ?? "").split(/[\n,]/).map((t) => t.trim()).filter(Boolean), caseSensitive: draft.caseSensitive };
      case "max_length":
        return { type: kind, chars: numberOf(f.chars) };
      case "json_schema":
        return { type: kind, schema: jsonOf(f.schema) ?? {} };
      case "judge":
        return defined({ type: kind, rubric: f.rubric ?? "", model: text("model"), passAt: numberOf(f.passAt) });
      default:
        return { type: kind, check: f.check ?? "" };
    }
  })();
  return { source, name: draft.guardName.trim(), on: draft.on, check };
}

/** The draft as POST /api/evaluators's input (text the schema will refuse is passed on, so its message names the field). */
export function createInputOf(d: EvaluatorDraft): Record<string, unknown> {
  const sampling = numberOf(d.samplingPercent);
  const below = numberOf(d.datasetRuleBelow);
  return {
    name: d.name.trim(),
    description: d.description,
    graph: d.graph.trim(),
    version: numberOf(d.version) ?? null,
    label: d.label.trim() || null,
    target: d.target,
    checks: d.checks.map(checkOf),
    expectations: d.expectedOutput.trim() ? { output: d.expectedOutput } : {},
    samplingRate: sampling === undefined ? 1 : sampling / 100,
    dailySpendCapUsd: numberOf(d.dailySpendCapUsd) ?? null,
    delaySeconds: numberOf(d.delaySeconds) ?? 0,
    datasetRule: d.datasetRuleDataset.trim() ? { dataset: d.datasetRuleDataset.trim(), below: below ?? Number.NaN } : null,
    enabled: d.enabled,
  };
}

/** The draft as PATCH /api/evaluators/:id's input: every field but the name and the graph. */
export function updateInputOf(d: EvaluatorDraft): Record<string, unknown> {
  const { name: _name, graph: _graph, ...rest } = createInputOf(d);
  return { id: d.editing, ...rest };
}

/** A path as the form keys it: `checks.0.scorer.rubric` (the server's `checks[0]…` and `checks.0…` alike). */
export function issueKey(path: string): string {
  return path.replace(/\[(\d+)\]/g, ".$1").replace(/^\./, "");
}

/** What the server would refuse in the draft, by field (the first message per field). */
export function draftIssues(d: EvaluatorDraft): Map<string, string> {
  const result = d.editing ? updateEvaluatorInput.safeParse(updateInputOf(d)) : createEvaluatorInput.safeParse(createInputOf(d));
  const issues = new Map<string, string>();
  if (result.success) return issues;
  for (const issue of result.error.issues) {
    const key = issueKey(formatPath(issue.path));
    // The update's fields sit at the top like the create's; only the percentage is typed otherwise.
    const field = key === "samplingRate" ? "samplingPercent" : key;
    if (!issues.has(field)) issues.set(field, issue.message);
  }
  return issues;
}

/** The server's field issues keyed as the form keys them. */
export function serverIssues(issues: readonly FieldIssue[] | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const issue of issues ?? []) {
    const key = issueKey(issue.path);
    if (!map.has(key)) map.set(key === "samplingRate" ? "samplingPercent" : key, issue.message);
  }
  return map;
}

function checkDraftOf(check: EvaluatorCheck): CheckDraft {
  if (check.source === "scorer") {
    const s = check.scorer;
    const base = emptyCheck(`scorer:${s.kind}` as CheckChoice);
    switch (s.kind) {
      case "judge":
        return { ...base, fields: defined({ rubric: s.rubric, model: s.model }) as Record<string, string> };
      case "contains":
        return { ...base, fields: s.text ? { text: s.text } : {} };
      case "exact":
        return { ...base, caseSensitive: s.caseSensitive ?? false };
      case "json_field":
        return { ...base, fields: { path: s.path, ...(s.equals !== undefined ? { equals: JSON.stringify(s.equals) } : {}) } };
      case "json_schema":
        return { ...base, fields: { schema: JSON.stringify(s.schema, null, 2) } };
      case "trajectory":
        return { ...base, order: s.order, args: s.arguments };
      case "latency":
        return { ...base, fields: { maxMs: String(s.maxMs) } };
      case "tokens":
        return { ...base, fields: { max: String(s.max) } };
      case "cost":
        return { ...base, fields: { maxUsd: String(s.maxUsd) } };
      case "custom":
        return { ...base, fields: { name: s.name } };
      default:
        return base;
    }
  }
  const c = check.check;
  const base = { ...emptyCheck(`guardrail:${c.type}` as CheckChoice), guardName: check.name, on: check.on };
  switch (c.type) {
    case "pii":
      return { ...base, detectors: [...c.detectors] };
    case "regex":
      return { ...base, fields: { pattern: c.pattern }, caseSensitive: !c.caseInsensitive };
    case "deny_list":
      return { ...base, fields: { terms: c.terms.join("\n") }, caseSensitive: c.caseSensitive };
    case "max_length":
      return { ...base, fields: { chars: String(c.chars) } };
    case "judge":
      return { ...base, fields: defined({ rubric: c.rubric, model: c.model, passAt: String(c.passAt) }) as Record<string, string> };
    case "custom":
      return { ...base, fields: { check: c.check } };
    case "json_schema":
      return { ...base, fields: { schema: JSON.stringify(c.schema, null, 2) } };
  }
}

/** An evaluator as the form edits it. */
export function draftOfView(view: EvaluatorView): EvaluatorDraft {
  return {
    editing: view.id,
    name: view.name,
    description: view.description,
    graph: view.graph,
    version: view.version === null ? "" : String(view.version),
    label: view.label ?? "",
    target: view.target,
    checks: view.checks.map(checkDraftOf),
    expectedOutput: view.expectations.output ?? "",
    samplingPercent: String(Math.round(view.samplingRate * 10_000) / 100),
    dailySpendCapUsd: view.dailySpendCapUsd === null ? "" : String(view.dailySpendCapUsd),
    delaySeconds: String(view.delaySeconds),
    datasetRuleDataset: view.datasetRule?.dataset ?? "",
    datasetRuleBelow: view.datasetRule ? String(view.datasetRule.below) : "",
    enabled: view.enabled,
  };
}

export { PII_DETECTORS };

const pad = (n: number) => String(n).padStart(2, "0");
const localInput = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** The backfill dialog's default range: yesterday, midnight to midnight where the user is, as datetime-local values. */
export function yesterdayInputs(now: Date): { from: string; to: string } {
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
  return { from: localInput(yesterday), to: localInput(today) };
}
