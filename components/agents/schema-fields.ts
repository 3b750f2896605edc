// The output schema editor's field list: a JSON Schema object as rows of fields
// (name, type, required, enum values, description, nested fields) and back.
// Only schemas the rows can express round-trip; anything else (oneOf, $ref,
// formats…) is edited as JSON, so the field list never drops a keyword.

export const SCALAR_TYPES = ["string", "number", "integer", "boolean", "object"] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];
/** A field's type: a scalar, or `array:<scalar>` for a list of them. */
export type FieldType = ScalarType | `array:${ScalarType}`;
export const FIELD_TYPES: readonly FieldType[] = [...SCALAR_TYPES, ...SCALAR_TYPES.map((t) => `array:${t}` as const)];

export interface SchemaField {
  /** Stable while the row is edited (React key); not part of the schema. */
  key: string;
  name: string;
  type: FieldType;
  required: boolean;
  /** Allowed values, comma-separated (strings, numbers or integers only). */
  enumText: string;
  description: string;
  /** The fields of an object, or of the objects in an array. */
  fields: SchemaField[];
}

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const isScalarType = (v: unknown): v is ScalarType => typeof v === "string" && (SCALAR_TYPES as readonly string[]).includes(v);

/** Keys the root may carry besides its fields; kept as they are when fields change. */
const ROOT_KEYS = new Set(["type", "properties", "required", "title", "description"]);
const FIELD_KEYS = new Set(["type", "description", "enum", "items", "properties", "required"]);
const OBJECT_KEYS = new Set(["type", "properties", "required"]);

let nextKey = 0;
/** A fresh row key (rows created by the user, not read from a schema). */
export const newFieldKey = () => `new-${++nextKey}`;

export function blankField(name = ""): SchemaField {
  return { key: newFieldKey(), name, type: "string", required: true, enumText: "", description: "", fields: [] };
}

export type FieldsRead = { ok: true; fields: SchemaField[] } | { ok: false; reason: string };

function readEnum(values: unknown, scalar: ScalarType, path: string): string | { reason: string } {
  if (values === undefined) return "";
  const numeric = scalar === "number" || scalar === "integer";
  if (!Array.isArray(values) || !(scalar === "string" || numeric)) return { reason: `${path}: enum values the field list cannot show` };
  const fits = values.every((v) => (numeric ? typeof v === "number" && (scalar === "number" || Number.isInteger(v)) : typeof v === "string" && !v.includes(",") && v.trim() === v && v !== ""));
  return fits ? values.join(", ") : { reason: `${path}: enum values the field list cannot show` };
}

/** The fields of an object schema (`{type: "object", properties, required}`), keys derived from their path. */
function readObject(schema: JsonObject, allowed: ReadonlySet<string>, path: string): FieldsRead {
  const extra = Object.keys(schema).find((k) => !allowed.has(k));
  if (extra) return { ok: false, reason: `${path || "the root"} uses "${extra}"` };
  if (schema.type !== "object") return { ok: false, reason: `${path || "the root"} is not "type": "object"` };
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  if (!isObject(properties)) return { ok: false, reason: `${path || "the root"}: "properties" is not an object` };
  if (!Array.isArray(required) || !required.every((r) => typeof r === "string" && r in properties)) return { ok: false, reason: `${path || "the root"}: "required" names fields it does not have` };
  const fields: SchemaField[] = [];
  for (const [name, value] of Object.entries(properties)) {
    const at = path ? `${path}.${name}` : name;
    const field = readField(name, value, required.includes(name), at);
    if (!field.ok) return field;
    fields.push(field.field);
  }
  return { ok: true, fields };
}

function readField(name: string, value: unknown, required: boolean, path: string): { ok: true; field: SchemaField } | { ok: false; reason: string } {
  if (!isObject(value)) return { ok: false, reason: `${path} is not a schema object` };
  const extra = Object.keys(value).find((k) => !FIELD_KEYS.has(k));
  if (extra) return { ok: false, reason: `${path} uses "${extra}"` };
  if (value.description !== undefined && typeof value.description !== "string") return { ok: false, reason: `${path}: description is not text` };
  const base = { key: `field:${path}`, name, required, description: value.description ?? "" };
  if (value.type === "array") {
    if (value.enum !== undefined || value.properties !== undefined || value.required !== undefined || !isObject(value.items)) return { ok: false, reason: `${path}: an array the field list cannot show` };
    const items = value.items;
    if (!isScalarType(items.type)) return { ok: false, reason: `${path}: items of a type the field list cannot show` };
    if (items.type === "object") {
      const nested = readObject(items, OBJECT_KEYS, `${path}[]`);
      return nested.ok ? { ok: true, field: { ...base, type: "array:object", enumText: "", fields: nested.fields } } : nested;
    }
    if (Object.keys(items).some((k) => k !== "type")) return { ok: false, reason: `${path}: items with keywords the field list cannot show` };
    return { ok: true, field: { ...base, type: `array:${items.type}`, enumText: "", fields: [] } };
  }
  if (!isScalarType(value.type)) return { ok: false, reason: `${path}: a type the field list cannot show` };
  if (value.items !== undefined) return { ok: false, reason: `${path}: "items" on a non-array` };
  if (value.type === "object") {
    if (value.enum !== undefined) return { ok: false, reason: `${path}: enum on an object` };
    const { description: _description, ...shape } = value;
    const nested = readObject(shape, OBJECT_KEYS, path);
    return nested.ok ? { ok: true, field: { ...base, type: "object", enumText: "", fields: nested.fields } } : nested;
  }
  if (value.properties !== undefined || value.required !== undefined) return { ok: false, reason: `${path}: "properties" on a non-object` };
  const enumText = readEnum(value.enum, value.type, path);
  if (typeof enumText !== "string") return { ok: false, reason: enumText.reason };
  return { ok: true, field: { ...base, type: value.type, enumText, fields: [] } };
}

/** The schema as rows, or why the field list cannot show it (then it is edited as JSON). */
export function schemaToFields(schema: JsonObject): FieldsRead {
  return readObject(schema, ROOT_KEYS, "");
}

const enumValues = (text: string, numeric: boolean): (string | number)[] =>
  text
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "")
    .map((v) => (numeric ? Number(v) : v))
    .filter((v) => typeof v === "string" || Number.isFinite(v));

function objectOf(fields: readonly SchemaField[]): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const field of fields) {
    // A row being typed (no name yet) or repeating an earlier name is left out until it is fixed.
    if (!field.name || field.name in properties) continue;
    properties[field.name] = fieldSchema(field);
    if (field.required) required.push(field.name);
  }
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

function fieldSchema(field: SchemaField): JsonObject {
  const description = field.description.trim() ? { description: field.description } : {};
  if (field.type.startsWith("array:")) {
    const item = field.type.slice("array:".length) as ScalarType;
    return { type: "array", ...description, items: item === "object" ? objectOf(field.fields) : { type: item } };
  }
  if (field.type === "object") return { ...objectOf(field.fields), ...description };
  const values = field.type === "boolean" ? [] : enumValues(field.enumText, field.type === "number" || field.type === "integer");
  return { type: field.type, ...description, ...(values.length ? { enum: values } : {}) };
}

/** The schema the rows stand for; the root keeps its title and description from `previous`. */
export function fieldsToSchema(fields: readonly SchemaField[], previous: JsonObject = {}): JsonObject {
  const kept = Object.fromEntries(Object.entries(previous).filter(([k]) => ROOT_KEYS.has(k) && k !== "type" && k !== "properties" && k !== "required"));
  return { ...kept, ...objectOf(fields) };
}

/** Problems of rows being edited, by row key: a missing or repeated name, an enum value that is not a number. */
export function fieldProblems(fields: readonly SchemaField[]): Map<string, string> {
  const problems = new Map<string, string>();
  const visit = (rows: readonly SchemaField[]) => {
    const seen = new Set<string>();
    for (const row of rows) {
      if (!row.name) problems.set(row.key, "name the field (it is left out of the schema until then)");
      else if (seen.has(row.name)) problems.set(row.key, `"${row.name}" is used twice; this row is left out`);
      else if ((row.type === "number" || row.type === "integer") && row.enumText.split(",").some((v) => v.trim() !== "" && !Number.isFinite(Number(v)))) problems.set(row.key, "enum values of a number field must be numbers");
      seen.add(row.name);
      if (row.type === "object" || row.type === "array:object") visit(row.fields);
    }
  };
  visit(fields);
  return problems;
}

/** Rows with one row (found by key, at any depth) replaced by `change(row)`, or removed when it returns null. */
export function updateField(fields: readonly SchemaField[], key: string, change: (row: SchemaField) => SchemaField | null): SchemaField[] {
  return fields.flatMap((row) => {
    if (row.key === key) {
      const next = change(row);
      return next ? [next] : [];
    }
    return row.fields.length ? [{ ...row, fields: updateField(row.fields, key, change) }] : [row];
  });
}
