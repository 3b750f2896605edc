import { z } from "zod";

/** Input of the smoke workflow, which proves browser → server action → Temporal → worker → database. */
export const smokeInputSchema = z.object({
  name: z.string().trim().min(1, "Enter a name").max(60, "Keep the name under 60 characters"),
});
export type SmokeInput = z.infer<typeof smokeInputSchema>;

/**
 * What the smoke workflow accepts: the form's input, plus (tests only; the form's
 * schema drops it) text the worker echoes back `times` times, which proves that
 * payloads over Temporal's size limit travel by reference.
 */
export interface SmokeWorkflowInput extends SmokeInput {
  echo?: { text: string; times: number };
}

export interface SmokeResult {
  workflowId: string;
  message: string;
  userCount: number;
  workerIdentity: string;
  completedAt: string;
  /** The echoed text, when the input asked for it. */
  echo?: string;
}
