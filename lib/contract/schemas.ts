// Browser-safe input schemas for the engine's HTTP API and server actions.
// Inputs of operations (start, follow-up, decide) live with their domain
// (lib/runs/schemas.ts, lib/inbox/schemas.ts), one schema per operation for
// every door; this file holds what only the engine's read routes take.
import { z } from "zod";
import { agentNameSchema } from "../agents/schemas";
import { EVENT_PAGE_DEFAULTS } from "./types";

/** An inbound webhook endpoint's id (lib/webhooks); here so the runs list can filter by one without importing lib/webhooks. */
export const webhookIdSchema = z.string().regex(/^whk_[A-Za-z0-9]{8,64}$/, "expected a webhook endpoint id (whk_…)");
export const runIdSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,300}$/, "not a run id");

/** `?since=N&limit=&maxBytes=`: events after sequence number N, paged by count and by bytes. */
export const eventPageQuerySchema = z.object({
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(2000).default(EVENT_PAGE_DEFAULTS.limit),
  maxBytes: z.coerce.number().int().min(1024).max(4_000_000).default(EVENT_PAGE_DEFAULTS.maxBytes),
});

/**
 * `GET /api/runs?graph=&entryAgent=&limit=`: `graph` is the saved agent graph
 * (what the run dialog starts, as in the runs list's `?graph=`), `entryAgent`
 * the agent of that graph the run starts with. Unknown parameters are refused,
 * so the old `?agent=` says so instead of silently listing every run.
 */
export const listRunsSchema = z.strictObject({
  graph: agentNameSchema.optional(),
  entryAgent: agentNameSchema.optional(),
  /** Only the runs this schedule started (sch_…). */
  scheduleId: z.string().regex(/^sch_[A-Za-z0-9]{8,64}$/, "expected a schedule id (sch_…)").optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
