import type { Db } from "../../lib/db/prisma";
import { createSmokeActivities } from "./smoke";

export interface ActivityDeps {
  db: Db;
}

/** Every activity the worker registers, built from its dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSmokeActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
