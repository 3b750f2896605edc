// Approval helpers used inside the workflow (pure and deterministic).
import { matchesGlob } from "../../lib/agents/glob";
import type { AgentConfig, ApprovalRule } from "../../lib/agents/schemas";

/** The first approval rule whose pattern matches the tool name, if any. */
export function matchingRule(agent: AgentConfig, toolName: string): ApprovalRule | undefined {
  return agent.approvalRules.find((rule) => matchesGlob(rule.pattern, toolName));
}

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; enum?: unknown[]; additionalProperties?: boolean };

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(expected: string | string[] | undefined, value: unknown): boolean {
  if (!expected) return true;
  const actual = typeOf(value);
  const allowed = Array.isArray(expected) ? expected : [expected];
  return allowed.some((t) => t === actual || (t === "number" && actual === "integer"));
}

/**
 * Checks edited arguments against a tool's JSON schema at the top level
 * (required fields, property types, enums, unknown fields). The tool itself
 * validates fully when it runs; this catches mistakes before the run resumes.
 */
export function argumentProblems(args: Record<string, unknown>, schema: Record<string, unknown> | undefined): string[] {
  if (!schema) return [];
  const s = schema as JsonSchema;
  const problems: string[] = [];
  for (const key of s.required ?? []) if (!(key in args)) problems.push(`${key}: required`);
  for (const [key, value] of Object.entries(args)) {
    const property = s.properties?.[key];
    if (!property) {
      if (s.additionalProperties === false) problems.push(`${key}: not a parameter of this tool`);
      continue;
    }
    if (!typeMatches(property.type, value)) problems.push(`${key}: expected ${String(property.type)}, got ${typeOf(value)}`);
    if (property.enum && !property.enum.includes(value)) problems.push(`${key}: expected one of ${property.enum.map(String).join(", ")}`);
  }
  return problems;
}
