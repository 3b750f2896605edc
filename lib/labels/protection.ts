// Whether a label is protected (moved only through an approved request): one
// graph's word first, then the workspace's ("*"), then the default (production).

import { DEFAULT_PROTECTED_LABELS } from "./schemas";

export interface ProtectionRow {
  graph: string;
  name: string;
  protected: boolean;
}

export const WORKSPACE_SCOPE = "*";

export function isProtectedLabel(rows: readonly ProtectionRow[], graph: string, label: string): boolean {
  const own = rows.find((row) => row.graph === graph && row.name === label);
  if (own) return own.protected;
  const workspace = rows.find((row) => row.graph === WORKSPACE_SCOPE && row.name === label);
  if (workspace) return workspace.protected;
  return DEFAULT_PROTECTED_LABELS.includes(label);
}

/** Every label name protected on a graph (the rows that say so, and the default unless a row says otherwise). */
export function protectedNames(rows: readonly ProtectionRow[], graph: string): string[] {
  const names = new Set([...DEFAULT_PROTECTED_LABELS, ...rows.filter((row) => row.graph === graph || row.graph === WORKSPACE_SCOPE).map((row) => row.name)]);
  return [...names].filter((name) => isProtectedLabel(rows, graph, name)).sort();
}
