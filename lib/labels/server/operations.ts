import "server-only";
// The operations on version labels, one each (schema, permission, act and
// audit), from which the server actions (lib/actions/version-labels.ts), the
// routes (/api/agents/:name/labels…, /api/label-requests…)
// and so the ZapClient's methods are built.
import { getDb } from "../../db/server/db";
import { operation } from "../../http/server/operation";
import {
  cancelLabelRequestInput,
  decideLabelRequestInput,
  listLabelRequestsInput,
  listLabelsInput,
  protectLabelInput,
  removeLabelInput,
  setLabelInput,
} from "../schemas";
import { changeLabel, listLabels, setLabelProtection } from "./labels";
import { cancelLabelRequest, decideLabelRequest, listLabelRequests } from "./requests";

export const listLabelsOperation = operation({ name: "list-labels", permission: "read", input: listLabelsInput, run: ({ input }) => listLabels(getDb(), input.name) });

/** Point a label at a version (with a split, or `split: null`); a protected label's change becomes a request in the inbox. */
export const setLabelOperation = operation({
  name: "set-label",
  permission: "agents:edit",
  input: setLabelInput,
  run: ({ input, user }) => changeLabel(getDb(), input.name, input.label, { kind: "set", version: input.version, split: input.split }, input.note, user),
});

export const removeLabelOperation = operation({
  name: "remove-label",
  permission: "agents:edit",
  input: removeLabelInput,
  run: ({ input, user }) => changeLabel(getDb(), input.name, input.label, { kind: "remove" }, input.note, user),
});

/** Admins: whether a label name is protected on a graph or ("*") the whole workspace. */
export const protectLabelOperation = operation({
  name: "protect-label",
  permission: "policy:manage",
  input: protectLabelInput,
  run: ({ input, user }) => setLabelProtection(getDb(), input.name, input.label, input.protected, user),
});

export const listLabelRequestsOperation = operation({ name: "list-label-requests", permission: "read", input: listLabelRequestsInput, run: ({ input }) => listLabelRequests(getDb(), input) });

/** Approvers and admins decide a request, never their own. */
export const decideLabelRequestOperation = operation({
  name: "decide-label-request",
  permission: "approvals:decide",
  input: decideLabelRequestInput,
  run: ({ input, user }) => decideLabelRequest(getDb(), input.requestId, input.decision, input.note, user),
});

export const cancelLabelRequestOperation = operation({
  name: "cancel-label-request",
  permission: "agents:edit",
  input: cancelLabelRequestInput,
  run: ({ input, user }) => cancelLabelRequest(getDb(), input.requestId, user),
});
