import "server-only";
import { getDb } from "../../db/server/db";
import { readForkOrigin, readForksOf } from "../../run-ledger/forks";
import type { ForkLinks } from "../schemas";

/** Where `runId` was forked from and the runs forked from it (newest 50). */
export async function forkLinks(runId: string): Promise<ForkLinks> {
  const db = getDb();
  const [origin, forks] = await Promise.all([readForkOrigin(db, runId), readForksOf(db, runId)]);
  return { origin, forks };
}
