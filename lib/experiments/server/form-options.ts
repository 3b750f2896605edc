import "server-only";
// What the "New experiment" form offers: datasets with their newest version and
// item count, saved agent graphs with their versions, the tools that may run
// live (side-effect-free built-ins) and the custom scorers.
import { getDb } from "../../db/server/db";
import { BUILTIN_TOOLS } from "../../tools/catalog";
import { customScorerNames } from "../scoring/custom";
import { listDatasets } from "../../datasets/server/store";

export interface ExperimentFormOptions {
  datasets: { id: string; name: string; latestVersion: number; itemCount: number }[];
  graphs: { name: string; versions: number[] }[];
  liveTools: string[];
  customScorers: string[];
}

/** The form's choices: the datasets domain's list (500 newest changed, by name here) and 200 graphs (the newest 50 versions each). */
export async function experimentFormOptions(): Promise<ExperimentFormOptions> {
  const db = getDb();
  const [datasets, agents] = await Promise.all([
    listDatasets(db, false),
    db.agent.findMany({ where: { archivedAt: null }, orderBy: { name: "asc" }, take: 200, select: { name: true, versions: { orderBy: { version: "desc" }, take: 50, select: { version: true } } } }),
  ]);
  return {
    datasets: datasets.map((d) => ({ id: d.id, name: d.name, latestVersion: d.latestVersion, itemCount: d.itemCount })).sort((a, b) => a.name.localeCompare(b.name)),
    graphs: agents.map((a) => ({ name: a.name, versions: a.versions.map((v) => v.version) })),
    liveTools: BUILTIN_TOOLS.filter((t) => !t.sideEffect).map((t) => t.id),
    customScorers: customScorerNames(),
  };
}
