"use server";
import { z } from "zod";
import { defineAction } from "../http/server/action";
import { datasetIdSchema } from "../datasets/schemas";
import { getDb } from "../db/server/db";
import { datasetSourceGraph } from "../experiments/server/form-options";

/** The graph a dataset's items came from, which the "New experiment" form takes as a target's graph once the dataset is chosen. */
export const getDatasetSourceGraphAction = defineAction({
  name: "get-dataset-source-graph",
  permission: "runs:launch",
  input: z.strictObject({ datasetId: datasetIdSchema }),
  handler: async ({ input }) => ({ graph: await datasetSourceGraph(getDb(), input.datasetId) }),
});
