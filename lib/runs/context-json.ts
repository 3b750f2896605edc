// Browser-safe helpers for the run dialog's context editor: parsing with an
// error position, which placeholders the context leaves unset, and which keys
// to suggest at the cursor.
import { jsonLanguage } from "@codemirror/lang-json";

export type JsonParse = { ok: true; value: Record<string, unknown> } | { ok: false; error: string; from: number };

/** Line and column (both 1-based) of an offset into `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length, column: before.length - before.lastIndexOf("\n") };
}

// V8 names a position only for some errors ("Unexpected end of JSON input" has
// none), so the JSON grammar's first error node is the fallback.
function errorOffset(text: string, message: string): number {
  const position = /position (\d+)/.exec(message);
  if (position) return Math.min(Number(position[1]), text.length);
  let offset: number | null = null;
  jsonLanguage.parser.parse(text).iterate({
    enter: (node) => {
      if (offset === null && node.type.isError) offset = node.from;
      return offset === null;
    },
  });
  return offset ?? text.length;
}

/** Parses a context object; an empty text is `{}`, and errors carry the offset and its line and column. */
export function parseJsonObject(text: string): JsonParse {
  if (!text.trim()) return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const from = errorOffset(text, error instanceof Error ? error.message : "");
    const { line, column } = lineColumn(text, from);
    return { ok: false, error: `Invalid JSON at line ${line}, column ${column}`, from };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, error: "The context must be a JSON object ({ … })", from: text.length - text.trimStart().length };
  return { ok: true, value: value as Record<string, unknown> };
}

/** The value at a placeholder path such as `context.customer.name` (the leading `context` is the object itself). */
export function valueAt(context: Record<string, unknown>, dotted: string): unknown {
  let value: unknown = context;
  for (const key of dotted.split(".").slice(1)) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Placeholders the context leaves undefined or null, in the given order. */
export function missingPlaceholders(context: Record<string, unknown>, placeholders: readonly string[]): string[] {
  return placeholders.filter((p) => valueAt(context, p) === undefined || valueAt(context, p) === null);
}

type Frame = { kind: "object"; key: string | null; expectKey: boolean } | { kind: "array" };

function keyPath(stack: Frame[]): string[] | null {
  const top = stack.at(-1);
  if (top?.kind !== "object" || !top.expectKey) return null;
  const path: string[] = [];
  for (const frame of stack.slice(0, -1)) {
    // Placeholders never index into arrays, so there is nothing to suggest inside one.
    if (frame.kind !== "object" || frame.key === null) return null;
    path.push(frame.key);
  }
  return path;
}

/**
 * When the cursor at `pos` is where a property name goes (or inside one being
 * typed), the keys of the objects around it, outermost first; otherwise null.
 * A forgiving scan rather than a parse, because the text is half-typed.
 */
export function keyPathAt(text: string, pos: number): string[] | null {
  const stack: Frame[] = [];
  let i = 0;
  while (i < pos) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < pos && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (j >= pos) return keyPath(stack);
      const top = stack.at(-1);
      if (top?.kind === "object" && top.expectKey) {
        top.key = text.slice(i + 1, j);
        top.expectKey = false;
      }
      i = j + 1;
      continue;
    }
    if (ch === "{") stack.push({ kind: "object", key: null, expectKey: true });
    else if (ch === "[") stack.push({ kind: "array" });
    else if (ch === "}" || ch === "]") stack.pop();
    else if (ch === ",") {
      const top = stack.at(-1);
      if (top?.kind === "object") {
        top.expectKey = true;
        top.key = null;
      }
    }
    i++;
  }
  return keyPath(stack);
}

/** Keys the placeholders use directly under `path`; `object` when some placeholder goes deeper. */
export function contextKeySuggestions(placeholders: readonly string[], path: readonly string[]): { key: string; object: boolean }[] {
  const found = new Map<string, boolean>();
  for (const placeholder of placeholders) {
    const segments = placeholder.split(".").slice(1);
    const key = segments[path.length];
    if (key === undefined || path.some((k, i) => segments[i] !== k)) continue;
    found.set(key, (found.get(key) ?? false) || segments.length > path.length + 1);
  }
  return [...found].map(([key, object]) => ({ key, object }));
}
