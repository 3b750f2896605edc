// Browser-safe helpers for edited tool arguments: the form fields a tool's JSON
// schema implies, the workflow's own top-level check, and a diff.
import type { ArgumentSchema } from "../engine/argument-check";

export { argumentProblems } from "../engine/argument-check";

export interface FieldSpec {
  name: string;
  kind: "string" | "number" | "integer" | "boolean" | "enum" | "json";
  required: boolean;
  description?: string;
  options?: string[];
}

type PropertySchema = ArgumentSchema;
type ObjectSchema = ArgumentSchema & { properties?: Record<string, PropertySchema> };

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
