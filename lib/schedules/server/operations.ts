import "server-only";
// The operations on schedules, one each (schema, permission, act and audit in
// store.ts), from which the schedules page's server actions and the
// /api/schedules routes are built. Managing a schedule is launching runs ahead
// of time, so it takes the permission that launches runs (builders and admins).
import { operation } from "../../http/server/operation";
import { backfillScheduleInput, listSchedulesInput, pauseScheduleInput, scheduleCreateSchema, scheduleRefInput, updateScheduleInput } from "../schemas";
import { schedules } from "./web";

export const listSchedulesOperation = operation({
  name: "list-schedules",
  permission: "read",
  input: listSchedulesInput,
  run: ({ input }) => schedules.list(input.graph),
});

export const getScheduleOperation = operation({
  name: "get-schedule",
  permission: "read",
  input: scheduleRefInput,
  run: ({ input }) => schedules.get(input.id),
});

export const createScheduleOperation = operation({
  name: "create-schedule",
  permission: "runs:launch",
  input: scheduleCreateSchema,
  run: ({ input, user }) => schedules.create(input, user),
});

export const updateScheduleOperation = operation({
  name: "update-schedule",
  permission: "runs:launch",
  input: updateScheduleInput,
  run: ({ input, user }) => schedules.update(input.id, input.patch, user),
});

export const pauseScheduleOperation = operation({
  name: "pause-schedule",
  permission: "runs:launch",
  input: pauseScheduleInput,
  run: ({ input, user }) => schedules.pause(input.id, input.note, user),
});

export const resumeScheduleOperation = operation({
  name: "resume-schedule",
  permission: "runs:launch",
  input: scheduleRefInput,
  run: ({ input, user }) => schedules.resume(input.id, user),
});

export const triggerScheduleOperation = operation({
  name: "trigger-schedule",
  permission: "runs:launch",
  input: scheduleRefInput,
  run: ({ input, user }) => schedules.trigger(input.id, user),
});

export const backfillScheduleOperation = operation({
  name: "backfill-schedule",
  permission: "runs:launch",
  input: backfillScheduleInput,
  run: ({ input, user }) => schedules.backfill(input, user),
});

export const deleteScheduleOperation = operation({
  name: "delete-schedule",
  permission: "runs:launch",
  input: scheduleRefInput,
  run: ({ input, user }) => schedules.remove(input.id, user),
});
