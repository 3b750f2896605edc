import "server-only";
// The web process's wiring of online evaluation: its database, its Temporal
// client and task queue. operations.ts calls these.
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";
import { getTemporalClient } from "../../temporal/server/client";
import type { EvaluatorDeps } from "./store";

export const evaluatorDeps = (): EvaluatorDeps => ({ db: getDb(), temporal: getTemporalClient(), taskQueue: getConfig().temporal.taskQueue });
