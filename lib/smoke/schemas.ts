import { z } from "zod";

/** Input of the smoke workflow, which proves browser → server action → Temporal → worker → database. */
export const smokeInputSchema = z.object({
  name: z.string().trim().min(1, "Enter a name").max(60, "Keep the name under 60 characters"),
});
export type SmokeInput = z.infer<typeof smokeInputSchema>;

export interface SmokeResult {
  workflowId: string;
  message: string;
  userCount: number;
  workerIdentity: string;
  completedAt: string;
}
