import "server-only";
// What the runs list's graph, model, tool and webhook filters suggest: the values that
// exist, so a user picks "support-triage" or "demo/assistant" rather than
// guessing how it is spelled (a misspelt value matches nothing, silently).
import { getDb } from "../../db/server/db";
import { facetValues } from "../../search/server/query";
import type { RunFilterSuggestions } from "../schemas";

/** At most this many suggestions per filter. */
export const SUGGESTIONS_MAX = 200;

/** The saved graphs' names, the tools and models some run used and the webhook endpoints, each alphabetically. */
export async function runFilterSuggestions(): Promise<RunFilterSuggestions> {
  const db = getDb();
  const [agents, models, tools, webhooks] = await Promise.all([
    db.agent.findMany({ orderBy: { name: "asc" }, take: SUGGESTIONS_MAX, select: { name: true } }),
    facetValues(db, "model", SUGGESTIONS_MAX),
    facetValues(db, "tool", SUGGESTIONS_MAX),
    db.webhookEndpoint.findMany({ orderBy: { name: "asc" }, take: SUGGESTIONS_MAX, select: { id: true, name: true } }),
  ]);
  return { graphs: agents.map((a) => a.name), models, tools, webhooks };
}
