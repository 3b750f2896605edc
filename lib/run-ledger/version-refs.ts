// Which saved version each run claims, read once for every page that names it
// (run header, runs list, compare page, inbox card). An unsaved variant (a
// fork with an edited prompt or another model) has no agent_version_id and
// names the version it derives from in variant_of_version_id, on its root row
// only: its sub-runs carry no version either, so they are named by their root.
import type { Db } from "../db/prisma";
import type { RunRow } from "./read";

/** A run's saved version number, or (an unsaved variant, itself or through its root) the version it derives from. */
export interface VersionNumbers {
  version: number | null;
  variantOf: number | null;
}

type VersionedRow = Pick<RunRow, "id" | "rootRunId" | "agentVersionId" | "variantOfVersionId">;

/** The version numbers of `rows`, by run id, in two reads at most (missing roots, then the versions). */
export async function readVersionNumbers(db: Db, rows: readonly VersionedRow[]): Promise<Map<string, VersionNumbers>> {
  const byId = new Map<string, Pick<VersionedRow, "variantOfVersionId">>(rows.map((r) => [r.id, r]));
  // Only a sub-run without a version of its own can be part of a variant: its root says.
  const missingRoots = [...new Set(rows.filter((r) => r.rootRunId !== r.id && r.agentVersionId === null && !byId.has(r.rootRunId)).map((r) => r.rootRunId))];
  if (missingRoots.length) {
    for (const root of await db.run.findMany({ where: { id: { in: missingRoots } }, select: { id: true, variantOfVersionId: true } })) byId.set(root.id, root);
  }
  const variantIdOf = (row: VersionedRow): string | null => row.variantOfVersionId ?? (row.agentVersionId === null ? (byId.get(row.rootRunId)?.variantOfVersionId ?? null) : null);
  const wanted = [...new Set(rows.flatMap((r) => [r.agentVersionId, variantIdOf(r)]).filter((id): id is string => id !== null))];
  const versions = wanted.length ? await db.agentVersion.findMany({ where: { id: { in: wanted } }, select: { id: true, version: true } }) : [];
  const numberOf = new Map(versions.map((v) => [v.id, v.version]));
  const numbers = new Map<string, VersionNumbers>();
  for (const row of rows) {
    const variantId = variantIdOf(row);
    numbers.set(row.id, {
      version: row.agentVersionId ? (numberOf.get(row.agentVersionId) ?? null) : null,
      variantOf: variantId ? (numberOf.get(variantId) ?? null) : null,
    });
  }
  return numbers;
}
