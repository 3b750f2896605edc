// Import and export of agent graphs as JSON text. Whatever the text holds, the
// answer is a graph or a list of path-addressed problems; nothing throws.
import type { AgentGraph } from "./schemas";
import { validateAgentGraph, type GraphIssue } from "./validate";

/** Larger than any graph the schema admits (1,000 agents with long prompts stay far below). */
export const MAX_IMPORT_BYTES = 5_000_000;

export type ImportResult = { ok: true; graph: AgentGraph; warnings: GraphIssue[] } | { ok: false; errors: GraphIssue[]; warnings: GraphIssue[] };

/** Parses and validates exported JSON (a bare graph, or an export file with a `graph` field). */
export function importGraphJson(text: string): ImportResult {
  if (text.length > MAX_IMPORT_BYTES) {
    return { ok: false, errors: [{ path: "(root)", message: `the file is larger than ${MAX_IMPORT_BYTES / 1_000_000} MB`, code: "invalid" }], warnings: [] };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : "not JSON";
    return { ok: false, errors: [{ path: "(root)", message: `not valid JSON: ${detail}`, code: "invalid" }], warnings: [] };
  }
  return importGraphValue(raw);
}

/** Validates an already parsed value as an import would. */
export function importGraphValue(raw: unknown): ImportResult {
  const isExportFile = typeof raw === "object" && raw !== null && !Array.isArray(raw) && "graph" in raw && !("agents" in raw);
  const candidate = isExportFile ? (raw as { graph: unknown }).graph : raw;
  const result = validateAgentGraph(candidate);
  if (result.ok) return { ok: true, graph: result.graph, warnings: result.warnings };
  const prefix = isExportFile ? "graph" : "";
  const errors = result.errors.map((e) => ({ ...e, path: e.path === "" || e.path === "(root)" ? prefix || "(root)" : prefix ? `${prefix}.${e.path}` : e.path }));
  return { ok: false, errors, warnings: result.warnings };
}

export interface GraphExport {
  name: string;
  version: number | null;
  exportedAt: string;
  graph: AgentGraph;
}

/** The JSON text of an export file. */
export function exportGraphJson(name: string, version: number | null, graph: AgentGraph): string {
  const file: GraphExport = { name, version, exportedAt: new Date().toISOString(), graph };
  return `${JSON.stringify(file, null, 2)}\n`;
}
