// Browser-safe input schemas for the engine's HTTP API and server actions.
import { z } from "zod";
import { agentNameSchema } from "../agents/schemas";

export const runIdSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,300}$/, "not a run id");

/** `?since=N&limit=&maxBytes=`: events after sequence number N, paged by count and by bytes. */
export const eventPageQuerySchema = z.object({
  since: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
  maxBytes: z.coerce.number().int().min(1024).max(4_000_000).default(1_000_000),
});

export const startRunSchema = z.object({
  /** A saved agent graph's name (e.g. `support-triage`). */
  agent: z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, "use a saved agent's name"),
  task: z.string().trim().min(1, "describe the task").max(20_000, "keep the task under 20,000 characters"),
  context: z.record(z.string(), z.unknown()).default({}),
});

export const sendMessageSchema = z.object({
  content: z.string().trim().min(1, "write a message").max(20_000, "keep the message under 20,000 characters"),
});

export const decideApprovalSchema = z
  .object({
    approved: z.boolean({ error: "approved must be true or false" }),
    reason: z.string().trim().max(2000).optional(),
    editedArguments: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((d) => d.approved || (d.reason && d.reason.length > 0), { path: ["reason"], message: "say why you reject: the model reads it" })
  .refine((d) => d.approved || !d.editedArguments, { path: ["editedArguments"], message: "only an approval can edit the arguments" });

export const listRunsSchema = z.object({
  agent: agentNameSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export type StartRunBody = z.infer<typeof startRunSchema>;
export type DecideApprovalBody = z.infer<typeof decideApprovalSchema>;
