import "server-only";
// The operations on monitors, one each (schema, permission, act and audit in
// store.ts), from which the monitors page's server actions and the
// /api/monitors routes are built.
import { operation } from "../../http/server/operation";
import { monitorCreateSchema, monitorRefInput, updateMonitorInput } from "../schemas";
import { monitors } from "./web";

export const createMonitorOperation = operation({
  name: "create-monitor",
  permission: "monitors:manage",
  input: monitorCreateSchema,
  run: ({ input, user }) => monitors.create(input, user),
});

export const updateMonitorOperation = operation({
  name: "update-monitor",
  permission: "monitors:manage",
  input: updateMonitorInput,
  run: ({ input, user }) => monitors.update(input.id, input.patch, user),
});

export const deleteMonitorOperation = operation({
  name: "delete-monitor",
  permission: "monitors:manage",
  input: monitorRefInput,
  run: ({ input, user }) => monitors.remove(input.id, user),
});
