import "server-only";
// The experiment operations, one each, from which the experiments page's
// server actions and /api/experiments are built.
import { operation } from "../../http/server/operation";
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";
import { getTemporalClient } from "../../temporal/server/client";
import { experimentIdInputSchema, getExperimentSchema, listExperimentsSchema, startExperimentSchema } from "../schemas";
import { startExperiment } from "./start";
import { cancelExperiment, getExperiment, listExperiments } from "./experiments";

/** Start: the "New experiment" form's action and `POST /api/experiments`; audited as experiment.started. */
export const startExperimentOperation = operation({
  name: "start-experiment",
  permission: "runs:launch",
  input: startExperimentSchema,
  run: ({ input, user }) => startExperiment({ db: getDb(), temporal: getTemporalClient(), taskQueue: getConfig().temporal.taskQueue }, input, user),
});

/** Cancel: the experiment page's action and `POST /api/experiments/:id/cancel`; audited as experiment.cancelled. */
export const cancelExperimentOperation = operation({
  name: "cancel-experiment",
  permission: "runs:launch",
  input: experimentIdInputSchema,
  run: ({ input, user }) => cancelExperiment(input.experimentId, user),
});

export const listExperimentsOperation = operation({
  name: "list-experiments",
  permission: "read",
  input: listExperimentsSchema,
  run: ({ input }) => listExperiments(input.limit),
});

export const getExperimentOperation = operation({
  name: "get-experiment",
  permission: "read",
  input: getExperimentSchema,
  run: ({ input }) => getExperiment(input.experimentId, { limit: input.limit, cursor: input.cursor }),
});
