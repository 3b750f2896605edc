import "server-only";
// The operations on spend limits, one each (schema, permission, act and audit in
// store.ts), from which the spend limits' server actions and the
// /api/spend-limits routes are built. The operation's permission admits
// builders (graph limits); store.ts refuses them every other scope (403).
import { getDb } from "../../db/server/db";
import { operation } from "../../http/server/operation";
import { listSpendLimitsInput, setSpendLimitInput, spendLimitRefInput } from "../schemas";
import { getSpendLimit, listSpendLimits, removeSpendLimit, setSpendLimit } from "./store";

export const listSpendLimitsOperation = operation({
  name: "list-spend-limits",
  permission: "read",
  input: listSpendLimitsInput,
  run: () => listSpendLimits(getDb()),
});

export const getSpendLimitOperation = operation({
  name: "get-spend-limit",
  permission: "read",
  input: spendLimitRefInput,
  run: ({ input }) => getSpendLimit(getDb(), input.id),
});

export const setSpendLimitOperation = operation({
  name: "set-spend-limit",
  permission: "agents:edit",
  input: setSpendLimitInput,
  run: ({ input, user }) => setSpendLimit(getDb(), input, user),
});

export const removeSpendLimitOperation = operation({
  name: "remove-spend-limit",
  permission: "agents:edit",
  input: spendLimitRefInput,
  run: ({ input, user }) => removeSpendLimit(getDb(), input.id, user),
});
