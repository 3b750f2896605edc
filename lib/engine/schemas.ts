// Browser-safe input schemas for the engine's HTTP API and server actions.
import { z } from "zod";
import { agentNameSchema } from "../agents/schemas";
import { ARGUMENTS_MAX_BYTES, boundedJsonObject, boundedText, REASON_MAX_CHARS } from "../http/limits";

export const runIdSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,300}$/, "not a run id");

/** `?since=N&limit=&maxBytes=`: events after sequence number N, paged by count and by bytes. */
export const eventPageQuerySchema = z.object({
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
  maxBytes: z.coerce.number().int().min(1024).max(4_000_000).default(1_000_000),
});

/** A follow-up message (`POST /api/runs/:runId/messages`). */
export const sendMessageSchema = z.strictObject({ content: boundedText("message", "write a message") });

export const decideApprovalSchema = z
  .strictObject({
    approved: z.boolean({ error: "approved must be true or false" }),
    reason: z.string().trim().max(REASON_MAX_CHARS, `keep the reason under ${REASON_MAX_CHARS.toLocaleString("en")} characters`).optional(),
    editedArguments: boundedJsonObject("edited arguments", ARGUMENTS_MAX_BYTES).optional(),
  })
  .refine((d) => d.approved || (d.reason && d.reason.length > 0), { path: ["reason"], message: "say why you reject: the model reads it" })
  .refine((d) => d.approved || !d.editedArguments, { path: ["editedArguments"], message: "only an approval can edit the arguments" });

export const listRunsSchema = z.object({
  agent: agentNameSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export type DecideApprovalBody = z.infer<typeof decideApprovalSchema>;
