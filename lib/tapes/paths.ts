// Where a step happened in a run tree, in words that survive a second run of
// the same tree. Child run ids carry uuid fragments (a sub-agent conversation
// is `<parent>.billing-1a2b3c4d`, a routed child `<parent>.route-1-billing-…`)
// and plan nodes an attempt number (`<parent>.node-n1-2`); a fork's children
// get new fragments, so a tape cannot name them by id. The rule:
//
//   root run                      ""
//   child of a run at path P      P + "." + <logical name> + "#" + <ordinal>
//
// The logical name is the child's id after its parent's id and the dot, with
// every dot-separated part stripped of a trailing uuid fragment (`-` and 8 hex
// digits) and a plan node part (`node-<id>-<attempt>`) of its attempt number:
// `billing`, `route-1-billing`, `node-n1`, `p2.node-n1`, `synthesis`. The
// ordinal counts the parent's children with the same logical name in the order
// they were started, from 1: the second conversation with billing is
// `.billing#2`, the second attempt of node n1 `.node-n1#2`. A model call is
// then (path, iteration) and a tool call (path, iteration, call id).
//
// Browser-safe and deterministic: the workflow computes a child's path as it
// starts it, and a fork computes the origin tree's paths from the run ledger
// (parent, start order) with the same functions.

import type { TapePath } from "./schemas";

const UUID_FRAGMENT = /-[0-9a-f]{8}$/;
const NODE_ATTEMPT = /^(node-.+)-\d+$/;

/** The logical name of `childId` under `parentId` (see the rule above); null when the id is not the parent's child. */
export function logicalChildName(parentId: string, childId: string): string | null {
  if (!childId.startsWith(`${parentId}.`) || childId.length === parentId.length + 1) return null;
  return childId
    .slice(parentId.length + 1)
    .split(".")
    .map((part) => {
      const node = NODE_ATTEMPT.exec(part);
      if (node?.[1]) return node[1];
      return part.replace(UUID_FRAGMENT, "");
    })
    .join(".");
}

/** The path of a child: its parent's path, its logical name and its ordinal among same-named siblings (from 1). */
export function childTapePath(parentPath: TapePath, logicalName: string, ordinal: number): TapePath {
  return `${parentPath}.${logicalName}#${ordinal}`;
}

export interface TreeRun {
  id: string;
  parentRunId: string | null;
  /** Start order among siblings: earlier first (ties broken by id). */
  startedAt: Date | string;
}

/**
 * The path of every run of a tree (the root's id is `rootId`), from the
 * ledger's rows. Siblings are ordered by start time, as their parent started
 * them; a run whose parent is missing or whose id does not extend its parent's
 * gets no path (it can hold no tape entry).
 */
export function treePaths(rootId: string, runs: readonly TreeRun[]): Map<string, TapePath> {
  const children = new Map<string, TreeRun[]>();
  for (const run of runs) {
    if (!run.parentRunId) continue;
    const list = children.get(run.parentRunId) ?? [];
    list.push(run);
    children.set(run.parentRunId, list);
  }
  const time = (run: TreeRun) => new Date(run.startedAt).getTime();
  const paths = new Map<string, TapePath>([[rootId, ""]]);
  const queue = [rootId];
  while (queue.length > 0) {
    const parentId = queue.shift() as string;
    const parentPath = paths.get(parentId) ?? "";
    const siblings = [...(children.get(parentId) ?? [])].sort((a, b) => time(a) - time(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const seen = new Map<string, number>();
    for (const child of siblings) {
      const name = logicalChildName(parentId, child.id);
      if (name === null) continue;
      const ordinal = (seen.get(name) ?? 0) + 1;
      seen.set(name, ordinal);
      paths.set(child.id, childTapePath(parentPath, name, ordinal));
      queue.push(child.id);
    }
  }
  return paths;
}

/** Canonical JSON (object keys sorted, at every depth): equal arguments are equal text, whatever order the model wrote them in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
