import "server-only";
// The feedback operations, one each, from which the trace's server actions and
// /api/runs/:runId/feedback are built. Any signed-in role may rate (read).
import { operation } from "../../http/server/operation";
import { listFeedbackSchema, removeFeedbackSchema, setFeedbackSchema } from "../schemas";
import { listFeedback, removeFeedback, setFeedback } from "./feedback";

export const listFeedbackOperation = operation({
  name: "list-feedback",
  permission: "read",
  input: listFeedbackSchema,
  run: ({ input, user }) => listFeedback(user, input),
});

export const setFeedbackOperation = operation({
  name: "set-feedback",
  permission: "read",
  input: setFeedbackSchema,
  run: ({ input, user }) => setFeedback(user, input),
});

export const removeFeedbackOperation = operation({
  name: "remove-feedback",
  permission: "read",
  input: removeFeedbackSchema,
  run: ({ input, user }) => removeFeedback(user, input),
});
