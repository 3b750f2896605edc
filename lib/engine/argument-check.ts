// Top-level check of tool-call arguments against the tool's JSON schema:
// required fields, types, enums, bounds and unknown fields. Pure, so the
// workflow (before asking a human, and on edited arguments) and the inbox's
// edit form (before sending) apply the same rules. The tool validates fully
// when it runs; this keeps invalid calls from reaching a human.

/** The subset of JSON Schema the check reads. */
export interface ArgumentSchema {
  type?: string | string[];
  properties?: Record<string, ArgumentSchema>;
  required?: string[];
  enum?: unknown[];
  description?: string;
  additionalProperties?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
}

/** JSON Schema's name for a value's type (whole numbers are "integer"). */
function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function boundProblems(key: string, value: unknown, p: ArgumentSchema): string[] {
  const problems: string[] = [];
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
  return problems;
}

/** One line per problem (`amount: required`); none when there is no schema. */
export function argumentProblems(args: Record<string, unknown>, schema: Record<string, unknown> | null | undefined): string[] {
  if (!schema) return [];
  const s = schema as ArgumentSchema;
  const problems: string[] = [];
  for (const key of s.required ?? []) if (!(key in args)) problems.push(`${key}: required`);
  for (const [key, value] of Object.entries(args)) {
    const property = s.properties?.[key];
    if (!property) {
      if (s.additionalProperties === false) problems.push(`${key}: not a parameter of this tool`);
      continue;
    }
    const allowed = property.type === undefined ? [] : Array.isArray(property.type) ? property.type : [property.type];
    const actual = jsonTypeOf(value);
    if (allowed.length && !allowed.some((t) => t === actual || (t === "number" && actual === "integer"))) {
      problems.push(`${key}: expected ${allowed.join(" or ")}, got ${actual}`);
      continue;
    }
    if (property.enum && !property.enum.includes(value)) problems.push(`${key}: expected one of ${property.enum.map(String).join(", ")}`);
    problems.push(...boundProblems(key, value, property));
  }
  return problems;
}
