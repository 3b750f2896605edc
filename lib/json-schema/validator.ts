// JSON Schema checks with Ajv: whether a schema an agent declares is itself
// valid (when a graph is saved or launched), and whether a value matches it
// (an agent's answer, a tool's result). Server and worker only: Ajv compiles
// schemas to functions with `new Function`, which the dashboard's
// Content-Security-Policy forbids in the browser (the designer shows these
// errors when it saves).
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsPlugin from "ajv-formats";
import { compileLinear, linearRegExp } from "./linear-regexp";

// ajv-formats ships CommonJS: under ESM its default export may be the module namespace.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ?? addFormatsPlugin) as typeof addFormatsPlugin;

function createAjv(strict: boolean): Ajv {
  // No loadSchema: a `$ref` to anything but the schema itself fails to compile, so nothing is ever fetched.
  // Patterns come from builders: RE2 matches them in linear time and refuses what it cannot (lib/json-schema/linear-regexp.ts).
  // allowMatchingProperties: strict mode would otherwise test each `patternProperties` key against the schema's
  // property names with V8's backtracking RegExp at compile time, where both sides are the builder's.
  const ajv = new Ajv({ allErrors: true, strict, validateFormats: true, allowMatchingProperties: true, code: { regExp: linearRegExp } });
  addFormats(ajv);
  return ajv;
}

/** Strict: unknown keywords and formats are errors, as a designer would want to hear at save. */
const checking = createAjv(true);
/** Lenient compiler for values: a schema that passed `checkJsonSchema` compiles the same here. */
const validating = createAjv(false);

/** One Ajv error as a sentence: where (a JSON pointer) and what. */
export function describeAjvError(error: ErrorObject): string {
  const where = error.instancePath || "(root)";
  if (error.keyword === "additionalProperties") return `${where} has a field the schema does not allow: "${String((error.params as { additionalProperty?: string }).additionalProperty)}"`;
  if (error.keyword === "enum") return `${where} must be one of ${JSON.stringify((error.params as { allowedValues?: unknown }).allowedValues)}`;
  return `${where} ${error.message ?? "is invalid"}`;
}

/**
 * The schema without its `$schema` dialect line: schemas written for draft 2019-09
 * or 2020-12 (zod, pydantic) name their dialect, which the draft-07 compiler
 * refuses to load; the keywords agents' schemas use mean the same in each.
 */
function withoutDialect(schema: unknown): unknown {
  if (!schema || typeof schema !== "object" || Array.isArray(schema) || !("$schema" in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return rest;
}

/** Keywords whose values are data, not schemas: a "pattern" field inside them is not a pattern. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples"]);

/**
 * Every `pattern` and `patternProperties` key RE2 refuses, each with where it is. Ajv compiles
 * only the patterns it needs (not one under an always-valid schema), so the save-time check
 * walks the schema itself: a pattern that cannot be matched in linear time is refused wherever it is.
 */
function nonLinearPatterns(node: unknown, at: string): string[] {
  if (Array.isArray(node)) return node.flatMap((item, index) => nonLinearPatterns(item, `${at}/${index}`));
  if (!node || typeof node !== "object") return [];
  const problems: string[] = [];
  const tryPattern = (pattern: string, where: string) => {
    try {
      compileLinear(pattern);
    } catch (error) {
      problems.push(`${where}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(key)) continue;
    if (key === "pattern" && typeof value === "string") tryPattern(value, `${at}/pattern`);
    if (key === "patternProperties" && value && typeof value === "object" && !Array.isArray(value)) {
      for (const pattern of Object.keys(value)) tryPattern(pattern, `${at}/patternProperties`);
    }
    problems.push(...nonLinearPatterns(value, `${at}/${key}`));
  }
  return problems;
}

/** Problems that make `schema` unusable as a JSON Schema (empty when it compiles). */
export function checkJsonSchema(schema: unknown): string[] {
  const patterns = nonLinearPatterns(schema, "");
  if (patterns.length) return patterns;
  const compilable = withoutDialect(schema) as object;
  try {
    checking.compile(compilable);
    return [];
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  } finally {
    checking.removeSchema(compilable);
  }
}

/**
 * The schema with `additionalProperties: false` on every object schema that
 * does not decide it itself: strict mode refuses fields the schema does not
 * name (DD-3), while a lenient schema lets models add them.
 */
export function strictened(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictened);
  if (!schema || typeof schema !== "object") return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // `properties`, `$defs` and the like map names to schemas: recurse into each value, not the map.
    copy[key] = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"].includes(key) && value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, strictened(sub)]))
      : key === "enum" || key === "const" || key === "required" || key === "examples" || key === "default"
        ? value
        : strictened(value);
  }
  const isObject = copy.type === "object" || (copy.type === undefined && copy.properties !== undefined);
  if (isObject && copy.additionalProperties === undefined && copy.unevaluatedProperties === undefined) copy.additionalProperties = false;
  return copy;
}

export type ValueCheck = { ok: true; errors: [] } | { ok: false; errors: string[] };

/** Compiled validators by schema text and mode; bounded, the oldest go first. */
const compiled = new Map<string, ValidateFunction>();
const COMPILED_KEPT = 500;

function validatorFor(schema: Record<string, unknown>, strict: boolean): ValidateFunction {
  const key = `${strict ? "s" : "l"}:${JSON.stringify(schema)}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const plain = withoutDialect(schema);
  const validate = validating.compile((strict ? strictened(plain) : plain) as object);
  compiled.set(key, validate);
  if (compiled.size > COMPILED_KEPT) compiled.delete(compiled.keys().next().value ?? key);
  return validate;
}

/** Whether `value` matches `schema`; at most `maxErrors` errors, each a sentence with its JSON pointer. */
export function checkValue(schema: Record<string, unknown>, value: unknown, options: { strict?: boolean; maxErrors?: number } = {}): ValueCheck {
  let validate: ValidateFunction;
  try {
    validate = validatorFor(schema, options.strict ?? false);
  } catch (error) {
    return { ok: false, errors: [`the schema itself is invalid: ${error instanceof Error ? error.message : String(error)}`] };
  }
  if (validate(value)) return { ok: true, errors: [] };
  const errors = (validate.errors ?? []).map(describeAjvError);
  return { ok: false, errors: errors.slice(0, options.maxErrors ?? 20) };
}

/** Parses a model's raw answer (text or tool arguments) as JSON, tolerating a ```json fence around it. */
export function parseJsonAnswer(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(raw);
  const text = (fenced?.[1] ?? raw).trim();
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `the output is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}
