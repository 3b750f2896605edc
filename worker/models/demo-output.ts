// Typed answers for the demo model: a deterministic value for a JSON Schema
// (an agent's output schema, the parameters of its `return` tool), so demos
// of structured output work offline. Property names steer the values the way
// a model would fill them: `answer`/`summary` carry the answer in words,
// `confidence` is 0.9, `sources` names the tools used, `*_reason` is null when
// it may be. Also the deliberately invalid answers `invalid N` asks for.

/** What the synthesised value draws on besides the schema. */
export interface AnswerHints {
  /** The answer in words: the summary of the tool results, or the script's answer. */
  summary: string;
  /** Names of the tools whose results the answer rests on. */
  sources: string[];
}

type Schema = Record<string, unknown>;

/** Nested schemas deeper than this (or a `$ref` loop) get null: a demo answer needs no more. */
const MAX_DEPTH = 12;

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === "object" && !Array.isArray(value);

interface Walk {
  root: Schema;
  hints: AnswerHints;
  depth: number;
}

/** Follows local references (`#/$defs/x`, `#/definitions/x`); anything else stays as it is. */
function resolved(schema: Schema, walk: Walk): Schema {
  let current = schema;
  for (let hops = 0; hops < MAX_DEPTH && typeof current.$ref === "string" && current.$ref.startsWith("#"); hops++) {
    let target: unknown = walk.root;
    for (const part of current.$ref.slice(1).split("/").filter(Boolean)) {
      const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
      target = isSchema(target) ? target[key] : undefined;
    }
    if (!isSchema(target)) break;
    current = target;
  }
  return current;
}

/** `allOf` folded into one schema: properties merged, required lists joined. */
function merged(schema: Schema, walk: Walk): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const parts = [schema, ...schema.allOf.filter(isSchema).map((part) => resolved(part, walk))];
  const result: Schema = {};
  const properties: Schema = {};
  const required: unknown[] = [];
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) if (key !== "allOf" && key !== "properties" && key !== "required") result[key] ??= value;
    if (isSchema(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) required.push(...part.required);
  }
  if (Object.keys(properties).length > 0) result.properties = properties;
  if (required.length > 0) result.required = [...new Set(required)];
  return result;
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  if (isSchema(schema.properties)) return ["object"];
  if (schema.items !== undefined) return ["array"];
  return [];
}

const allowsNull = (schema: Schema): boolean => typesOf(schema).includes("null") || schema.nullable === true || schema.const === null;

const isReasonName = (name: string | null): boolean => name !== null && /_reason$/i.test(name);

/** A number as close to `preferred` as the schema's bounds allow. */
function numberWithin(schema: Schema, preferred: number, integer: boolean): number {
  const step = integer ? 1 : 0.01;
  const low = Math.max(typeof schema.minimum === "number" ? schema.minimum : -Infinity, typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + step : -Infinity);
  const high = Math.min(typeof schema.maximum === "number" ? schema.maximum : Infinity, typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum - step : Infinity);
  let value = Math.min(Math.max(preferred, low), high);
  if (integer) value = Math.min(Math.max(Math.round(value), Math.ceil(low)), Math.floor(high));
  return value;
}

function stringFor(schema: Schema, name: string | null, walk: Walk): string {
  const formatted: Record<string, string> = {
    "date-time": "2026-01-01T00:00:00Z",
    date: "2026-01-01",
    time: "00:00:00Z",
    email: "demo@example.com",
    uri: "https://example.com/",
    url: "https://example.com/",
    uuid: "00000000-0000-4000-8000-000000000000",
  };
  let text: string;
  if (typeof schema.format === "string" && formatted[schema.format]) text = formatted[schema.format] ?? "";
  else if (name !== null && /^(answer|summary)$/i.test(name)) text = walk.hints.summary;
  else if (isReasonName(name)) text = "Demo reason.";
  else text = name ? `demo ${name}` : "demo";
  if (typeof schema.minLength === "number" && text.length < schema.minLength) text = text.padEnd(schema.minLength, ".");
  if (typeof schema.maxLength === "number" && text.length > schema.maxLength) text = text.slice(0, schema.maxLength);
  return text;
}

function arrayFor(schema: Schema, name: string | null, walk: Walk): unknown[] {
  const items = isSchema(schema.items) ? resolved(schema.items, walk) : {};
  const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === "number" ? schema.maxItems : Infinity;
  const itemTypes = typesOf(items);
  if (name !== null && /^sources?$/i.test(name) && (itemTypes.length === 0 || itemTypes.includes("string"))) {
    const sources = [...walk.hints.sources];
    while (sources.length < minItems) sources.push(`source ${sources.length + 1}`);
    return sources.slice(0, maxItems);
  }
  const count = Math.min(Math.max(minItems, 1), maxItems);
  const singular = name?.replace(/s$/, "") ?? null;
  return Array.from({ length: count }, () => valueAt(items, { ...walk, depth: walk.depth + 1 }, singular));
}

function objectFor(schema: Schema, walk: Walk): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const properties = isSchema(schema.properties) ? schema.properties : {};
  for (const [key, property] of Object.entries(properties)) {
    result[key] = valueAt(isSchema(property) ? property : {}, { ...walk, depth: walk.depth + 1 }, key);
  }
  // A required name without a property schema still has to be there.
  for (const key of Array.isArray(schema.required) ? schema.required : []) if (typeof key === "string" && !(key in result)) result[key] = `demo ${key}`;
  return result;
}

function valueAt(input: Schema, walk: Walk, name: string | null): unknown {
  if (walk.depth > MAX_DEPTH) return null;
  const schema = merged(resolved(input, walk), walk);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return isReasonName(name) && schema.enum.includes(null) ? null : schema.enum[0];
  const branches = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : []).filter(isSchema).map((b) => resolved(b, walk));
  if (branches.length > 0) {
    const nullable = branches.some(allowsNull);
    if (isReasonName(name) && nullable) return null;
    const branch = branches.find((b) => !allowsNull(b)) ?? branches[0] ?? {};
    return valueAt({ ...schema, anyOf: undefined, oneOf: undefined, ...branch }, walk, name);
  }
  if (isReasonName(name) && allowsNull(schema)) return null;
  const type = typesOf(schema).find((t) => t !== "null") ?? (allowsNull(schema) ? "null" : inferredType(name));
  switch (type) {
    case "object":
      return objectFor(schema, walk);
    case "array":
      return arrayFor(schema, name, walk);
    case "number":
    case "integer":
      return numberWithin(schema, name !== null && /confidence/i.test(name) ? 0.9 : 1, type === "integer");
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return stringFor(schema, name, walk);
  }
}

/** A schema that names no type: guess from the property name, as a model would. */
function inferredType(name: string | null): string {
  if (name !== null && /confidence/i.test(name)) return "number";
  if (name !== null && /^sources?$/i.test(name)) return "array";
  return "string";
}

/** A deterministic value for `schema`: every property (required or not), within enums and bounds. */
export function valueForSchema(schema: Record<string, unknown>, hints: AnswerHints): unknown {
  return valueAt(schema, { root: schema, hints, depth: 0 }, null);
}

/** A value of the wrong JSON type for `schema` (a string where anything else is wanted, a number for a string). */
function wrongTypeFor(schema: Schema): unknown {
  const types = typesOf(schema);
  if (types.length === 0) return undefined;
  if (!types.includes("number") && !types.includes("integer")) return 42;
  if (!types.includes("string")) return "not valid here";
  if (!types.includes("object")) return {};
  return undefined;
}

/**
 * Arguments for a `return` call that `schema` refuses, the same every time:
 * `{}` when the schema requires a property, else the first property it types
 * with a value of another type, else a string where an object belongs.
 */
export function invalidArgumentsFor(schema: Record<string, unknown>): string {
  const walk: Walk = { root: schema, hints: { summary: "", sources: [] }, depth: 0 };
  const root = merged(resolved(schema, walk), walk);
  if (Array.isArray(root.required) && root.required.length > 0) return "{}";
  for (const [key, property] of Object.entries(isSchema(root.properties) ? root.properties : {})) {
    const wrong = isSchema(property) ? wrongTypeFor(property) : undefined;
    if (wrong !== undefined) return JSON.stringify({ [key]: wrong });
  }
  return JSON.stringify("not an object");
}
