// How the typed-answer tree shows a JSON value: containers fold with a short
// preview, leaves show as JSON literals. Pure and browser-safe.
import { plural } from "../text/plural";

export type JsonNode =
  | { kind: "object"; entries: [string, unknown][] }
  | { kind: "array"; items: unknown[] }
  | { kind: "leaf"; text: string; type: "string" | "number" | "boolean" | "null" | "other" };

/** What a value is, for the tree: a container with its children, or a leaf with its literal. */
export function jsonNode(value: unknown): JsonNode {
  if (Array.isArray(value)) return { kind: "array", items: value };
  if (value !== null && typeof value === "object") return { kind: "object", entries: Object.entries(value) };
  if (value === null) return { kind: "leaf", text: "null", type: "null" };
  if (typeof value === "string") return { kind: "leaf", text: JSON.stringify(value), type: "string" };
  if (typeof value === "number") return { kind: "leaf", text: String(value), type: "number" };
  if (typeof value === "boolean") return { kind: "leaf", text: String(value), type: "boolean" };
  return { kind: "leaf", text: String(value), type: "other" };
}

/** The folded line of a container: "{3 keys}", "[1 item]". */
export function jsonPreview(node: Exclude<JsonNode, { kind: "leaf" }>): string {
  if (node.kind === "object") return `{${plural(node.entries.length, "key")}}`;
  return `[${plural(node.items.length, "item")}]`;
}

/** The raw view: pretty JSON (a value JSON cannot hold reads as its text). */
export function rawJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}
