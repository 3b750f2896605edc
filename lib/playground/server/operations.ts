import "server-only";
// The playground's operations, one each, from which its page's server actions
// and /api/playground are built. Opening a call reads (read); running one
// costs money (runs:launch); saving the edit is a draft agent version (agents:edit).
import { getConfig } from "../../config/server/config";
import { loadPriceBook } from "../../pricing/server/price-book";
import { getDb } from "../../db/server/db";
import { catalogOptions } from "../../models/catalog";
import { getTemporalClient } from "../../temporal/server/client";
import { operation } from "../../http/server/operation";
import { limitExpensiveRead } from "../../http/server/read-limits";
import { loadPlaygroundSchema, playgroundCallSchema, savePlaygroundDraftSchema } from "../schemas";
import { playgroundCall } from "./call";
import { loadPlaygroundCall } from "./load";
import { savePlaygroundDraft } from "./save";

/** The process's database, Temporal client, task queue and price book. */
async function deps() {
  const config = getConfig();
  return { db: getDb(), temporal: getTemporalClient(), taskQueue: config.temporal.taskQueue, prices: await loadPriceBook(), catalog: catalogOptions(config) };
}

/**
 * Open: the playground page's action and `POST /api/runs/:runId/spans/:spanId/playground`; audited as
 * playground.opened, and counted per user or key (it starts a workflow that describes the agent's tools).
 */
export const loadPlaygroundOperation = operation({
  name: "load-playground-call",
  permission: "read",
  input: loadPlaygroundSchema,
  run: async ({ input, user }) => {
    await limitExpensiveRead(user, "playground.open");
    return loadPlaygroundCall(await deps(), user, input.runId, input.spanId);
  },
});

export const playgroundCallOperation = operation({
  name: "playground-call",
  permission: "runs:launch",
  input: playgroundCallSchema,
  run: async ({ input, user }) => playgroundCall(await deps(), user, input),
});

export const savePlaygroundDraftOperation = operation({
  name: "save-playground-draft",
  permission: "agents:edit",
  input: savePlaygroundDraftSchema,
  run: ({ input, user }) => savePlaygroundDraft(getDb(), user, input),
});
