import type { Db } from "../../lib/db/prisma";
import type { ModelRegistry } from "../models/registry";
import type { ToolExecutor } from "../tools/executor";
import { createSmokeActivities } from "./smoke";
import { createAgentActivities } from "./agent";
import { createLedgerActivities } from "./ledger";
import { createNotificationActivities, type WebhookConfig } from "./notifications";

export interface ActivityDeps {
  db: Db;
  models: ModelRegistry;
  tools: ToolExecutor;
  webhook?: WebhookConfig | null;
  /** Key that checks the web server's signature on approval decisions (null refuses every decision). */
  decisionKey?: Buffer | null;
}

/** Every activity the worker registers, built from its dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSmokeActivities(deps),
    ...createAgentActivities(deps),
    ...createLedgerActivities(deps),
    ...createNotificationActivities({ webhook: deps.webhook ?? null }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
