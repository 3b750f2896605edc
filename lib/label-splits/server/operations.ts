import "server-only";
// The dashboard's split card as an operation: GET /api/label-splits and the
// ZapClient's compareLabelSplits read it.
import { z } from "zod";
import { getDb } from "../../db/server/db";
import { operation } from "../../http/server/operation";
import { agentNameSchema } from "../../agents/schemas";
import { compareLabelSplits } from "./compare";

export const compareLabelSplitsInput = z.strictObject({
  graph: agentNameSchema.optional(),
  from: z.iso.datetime({ offset: true, local: true }).optional(),
  to: z.iso.datetime({ offset: true, local: true }).optional(),
});

/** The dashboard's split card: every label with a split, its two sides compared. */
export const compareLabelSplitsOperation = operation({
  name: "compare-label-splits",
  permission: "read",
  input: compareLabelSplitsInput,
  run: ({ input }) => compareLabelSplits(getDb(), { graph: input.graph, from: input.from ? new Date(input.from) : undefined, to: input.to ? new Date(input.to) : undefined }),
});
