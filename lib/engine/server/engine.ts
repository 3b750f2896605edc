import "server-only";
import { createEngine, type Engine } from "../client";
import { getTemporalClient } from "../../temporal/server/client";
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";

const holder = globalThis as typeof globalThis & { zapEngine?: Engine };

/** The web server's engine client (shared Temporal client and Prisma client). */
export function getEngine(): Engine {
  holder.zapEngine ??= createEngine({ temporal: getTemporalClient(), db: getDb(), taskQueue: getConfig().temporal.taskQueue });
  return holder.zapEngine;
}
