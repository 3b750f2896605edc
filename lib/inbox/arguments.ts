// Browser-safe helpers for edited tool arguments: the form fields a tool's JSON
// schema implies, a top-level check matching the workflow's, and a diff.

export interface FieldSpec {
  name: string;
  kind: "string" | "number" | "integer" | "boolean" | "enum" | "json";
  required: boolean;
  description?: string;
  options?: string[];
}

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
}

interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
  additionalProperties?: boolean;
}

function kindOf(p: PropertySchema): FieldSpec["kind"] {
  if (p.enum?.every((v) => typeof v === "string")) return "enum";
  const type = Array.isArray(p.type) ? p.type.find((t) => t !== "null") : p.type;
  if (type === "string" || type === "number" || type === "integer" || type === "boolean") return type;
  return "json";
}

/** The form's fields, in the schema's order. */
export function fieldsOf(schema: Record<string, unknown>): FieldSpec[] {
  const s = schema as ObjectSchema;
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).map(([name, p]) => ({
    name,
    kind: kindOf(p),
    required: required.has(name),
    ...(p.description ? { description: p.description } : {}),
    ...(p.enum ? { options: p.enum.map(String) } : {}),
  }));
}

/** Parses one form value; empty optional fields are left out. */
export function parseField(field: FieldSpec, raw: string): { value?: unknown; problem?: string } {
  if (raw.trim() === "" && field.kind !== "string") return field.required ? { problem: `${field.name}: required` } : {};
  switch (field.kind) {
    case "number":
    case "integer": {
      const n = Number(raw);
      if (!Number.isFinite(n)) return { problem: `${field.name}: not a number` };
      if (field.kind === "integer" && !Number.isInteger(n)) return { problem: `${field.name}: must be a whole number` };
      return { value: n };
    }
    case "boolean":
      return { value: raw === "true" };
    case "json":
      try {
        return { value: JSON.parse(raw) as unknown };
      } catch {
        return { problem: `${field.name}: not valid JSON` };
      }
    default:
      return raw === "" && !field.required ? {} : { value: raw };
  }
}

/** How a value is shown in a form field. */
export function formatField(field: FieldSpec, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (field.kind === "json") return JSON.stringify(value);
  return String(value);
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The same top-level checks the workflow applies to edited arguments, so mistakes are caught before sending. */
export function argumentProblems(args: Record<string, unknown>, schema: Record<string, unknown> | null): string[] {
  if (!schema) return [];
  const s = schema as ObjectSchema;
  const problems: string[] = [];
  for (const key of s.required ?? []) if (!(key in args)) problems.push(`${key}: required`);
  for (const [key, value] of Object.entries(args)) {
    const p = s.properties?.[key];
    if (!p) {
      if (s.additionalProperties === false) problems.push(`${key}: not a parameter of this tool`);
      continue;
    }
    const allowed = p.type === undefined ? [] : Array.isArray(p.type) ? p.type : [p.type];
    const actual = typeOf(value);
    if (allowed.length && !allowed.some((t) => t === actual || (t === "number" && actual === "integer"))) {
      problems.push(`${key}: expected ${allowed.join(" or ")}, got ${actual}`);
      continue;
    }
    if (p.enum && !p.enum.includes(value)) problems.push(`${key}: expected one of ${p.enum.map(String).join(", ")}`);
    if (typeof value === "number") {
      if (p.minimum !== undefined && value < p.minimum) problems.push(`${key}: must be at least ${p.minimum}`);
      if (p.maximum !== undefined && value > p.maximum) problems.push(`${key}: must be at most ${p.maximum}`);
      if (p.exclusiveMinimum !== undefined && value <= p.exclusiveMinimum) problems.push(`${key}: must be greater than ${p.exclusiveMinimum}`);
      if (p.exclusiveMaximum !== undefined && value >= p.exclusiveMaximum) problems.push(`${key}: must be less than ${p.exclusiveMaximum}`);
    }
    if (typeof value === "string") {
      if (p.minLength !== undefined && value.length < p.minLength) problems.push(`${key}: must have at least ${p.minLength} characters`);
      if (p.maxLength !== undefined && value.length > p.maxLength) problems.push(`${key}: must have at most ${p.maxLength} characters`);
    }
  }
  return problems;
}

export interface DiffLine {
  key: string;
  before: string | null;
  after: string | null;
}

/** Keys whose value changed, was added or was removed, in a stable order. */
export function diffArguments(before: Record<string, unknown>, after: Record<string, unknown>): DiffLine[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const show = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
  return keys.map((key) => ({ key, before: show(before[key]), after: show(after[key]) })).filter((d) => d.before !== d.after);
}

/** Same tool and same arguments (key order ignored): calls that can be triaged together. */
export function callKey(toolName: string, args: Record<string, unknown>): string {
  const stable = (v: unknown): unknown =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, stable((v as Record<string, unknown>)[k])]))
      : Array.isArray(v)
        ? v.map(stable)
        : v;
  return `${toolName}\u0000${JSON.stringify(stable(args))}`;
}
