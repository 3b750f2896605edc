// How a run's graph version is named, one wording for the run header, the runs
// list, the compare page and the inbox card. A run with an edited prompt or
// another model (a fork's unsaved variant) executed a graph nobody saved: it
// is named after the version it derives from, never as that version.
// Browser-safe and pure.

/** What a run claims of its graph: the saved version it ran, or the saved version its unsaved variant derives from. */
export interface GraphVersionRef {
  graphName: string | null;
  /** The saved version the run executed; null for an unsaved variant or an inline graph. */
  version: number | null;
  /** The saved version an unsaved variant derives from (set on the tree's root; a sub-run carries its root's). */
  variantOf?: number | null;
}

/** "treasury v3", "unsaved variant of treasury v3", "treasury" (version unknown) or "inline graph". */
export function graphVersionLabel(ref: GraphVersionRef | undefined): string {
  if (!ref?.graphName) return "inline graph";
  if (ref.variantOf !== undefined && ref.variantOf !== null) return `unsaved variant of ${ref.graphName} v${ref.variantOf}`;
  return ref.version !== null ? `${ref.graphName} v${ref.version}` : ref.graphName;
}

/** The runs list's version column: "v3" for a saved version, the whole variant wording for an unsaved variant, else "—". */
export function versionCell(ref: GraphVersionRef): string {
  if (ref.graphName && ref.variantOf !== undefined && ref.variantOf !== null) return graphVersionLabel(ref);
  return ref.version !== null ? `v${ref.version}` : "—";
}
