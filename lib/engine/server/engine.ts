import "server-only";
import { createEngine, type Engine } from "../client";
import { getTemporalClient } from "../../temporal/server/client";
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";
import { configuredKey } from "../../crypto/keys";
import { catalogOptions } from "../../models/catalog";

const holder = globalThis as typeof globalThis & { zapEngine?: Engine };

/** The web server's engine client (shared Temporal client and Prisma client). */
export function getEngine(): Engine {
  if (!holder.zapEngine) {
    const config = getConfig();
    const decisionKey = config.keyMaterial ? configuredKey(config, "approval-decisions") : null;
    holder.zapEngine = createEngine({
      temporal: getTemporalClient(),
      db: getDb(),
      taskQueue: config.temporal.taskQueue,
      decisionKey,
      // Which OpenAI-compatible models read images, and which private hosts an image URL may name.
      catalog: catalogOptions(config),
      egressAllowHosts: config.egress.allowHosts,
    });
  }
  return holder.zapEngine;
}
