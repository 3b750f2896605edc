import "server-only";
// What the "New experiment" form offers: datasets with their newest version and
// item count, saved agent graphs with their versions (drafts marked, and the
// default version a target takes unless one is chosen), the tools that may run
// live (side-effect-free built-ins), the custom scorers, and the caller's own
// last choice of dataset. The form preselects nothing else (issue 37 §2): a
// target's graph is the chosen dataset's source graph (datasetSourceGraph).
import type { Db } from "../../db/prisma";
import { getDb } from "../../db/server/db";
import { BUILTIN_TOOLS } from "../../tools/catalog";
import { customScorerNames } from "../scoring/custom";
import { listDatasets } from "../../datasets/server/store";
import { itemOf, readDatasetRow, rowsAt } from "../../datasets/server/items";
import { readRunRows } from "../../run-ledger/read";

export interface ExperimentFormOptions {
  datasets: { id: string; name: string; latestVersion: number; itemCount: number }[];
  graphs: { name: string; versions: { version: number; draft: boolean }[]; defaultVersion: number | null }[];
  liveTools: string[];
  customScorers: string[];
  /** The dataset of the caller's newest experiment, when it is still listed: the form's only preselection. */
  lastDataset: string | null;
}

/** The form's choices: the datasets domain's list (500 newest changed, by name here) and 200 graphs (the newest 50 versions each). */
export async function experimentFormOptions(userId: string): Promise<ExperimentFormOptions> {
  const db = getDb();
  const [datasets, agents, last] = await Promise.all([
    listDatasets(db, false),
    db.agent.findMany({ where: { archivedAt: null }, orderBy: { name: "asc" }, take: 200, select: { name: true, versions: { orderBy: { version: "desc" }, take: 50, select: { version: true, draft: true } } } }),
    db.experiment.findFirst({ where: { createdById: userId }, orderBy: { createdAt: "desc" }, select: { datasetName: true } }),
  ]);
  return {
    datasets: datasets.map((d) => ({ id: d.id, name: d.name, latestVersion: d.latestVersion, itemCount: d.itemCount })).sort((a, b) => a.name.localeCompare(b.name)),
    graphs: agents.map((a) => ({ name: a.name, versions: a.versions, defaultVersion: a.versions.find((v) => !v.draft)?.version ?? null })),
    liveTools: BUILTIN_TOOLS.filter((t) => !t.sideEffect).map((t) => t.id),
    customScorers: customScorerNames(),
    lastDataset: last && datasets.some((d) => d.name === last.datasetName) ? last.datasetName : null,
  };
}

/** Items read to find a dataset's source graph: enough to see which graph its runs came from. */
const SOURCE_SAMPLE = 100;

/**
 * The graph a dataset's items came from: the saved graph most of its newest version's first items' source runs
 * executed (items from runs or approvals of a run); null for imported items or runs of an inline graph.
 */
export async function datasetSourceGraph(db: Db, datasetId: string): Promise<string | null> {
  const dataset = await readDatasetRow(db, datasetId);
  if (dataset.latestVersion === 0) return null;
  const rows = await db.datasetItemRow.findMany({ where: rowsAt(dataset.id, dataset.latestVersion), orderBy: { position: "asc" }, take: SOURCE_SAMPLE, select: { itemId: true, position: true, data: true } });
  const runIds = [...new Set(rows.flatMap((row) => itemOf(row).source.runId ?? []))];
  if (runIds.length === 0) return null;
  const { rows: runs } = await readRunRows(db, { runIds }, { take: runIds.length });
  const counts = new Map<string, number>();
  for (const run of runs) if (run.graphName) counts.set(run.graphName, (counts.get(run.graphName) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
}
