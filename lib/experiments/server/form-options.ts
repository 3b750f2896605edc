import "server-only";
// What the "New experiment" form offers: datasets with their newest version and
// item count, saved agent graphs with their versions, the tools that may run
// live (side-effect-free built-ins) and the custom scorers.
import { getDb } from "../../db/server/db";
import { BUILTIN_TOOLS } from "../../tools/catalog";
import { customScorerNames } from "../scoring/custom";

export interface ExperimentFormOptions {
  datasets: { id: string; name: string; latestVersion: number; itemCount: number }[];
  graphs: { name: string; versions: number[] }[];
  liveTools: string[];
  customScorers: string[];
}

/** The form's choices: at most 200 datasets and 200 graphs (the newest 50 versions each). */
export async function experimentFormOptions(): Promise<ExperimentFormOptions> {
  const db = getDb();
  const [datasets, agents] = await Promise.all([
    db.dataset.findMany({ where: { archivedAt: null }, orderBy: { name: "asc" }, take: 200, select: { id: true, name: true, latestVersion: true, itemCount: true } }),
    db.agent.findMany({ where: { archivedAt: null }, orderBy: { name: "asc" }, take: 200, select: { name: true, versions: { orderBy: { version: "desc" }, take: 50, select: { version: true } } } }),
  ]);
  return {
    datasets,
    graphs: agents.map((a) => ({ name: a.name, versions: a.versions.map((v) => v.version) })),
    liveTools: BUILTIN_TOOLS.filter((t) => !t.sideEffect).map((t) => t.id),
    customScorers: customScorerNames(),
  };
}
