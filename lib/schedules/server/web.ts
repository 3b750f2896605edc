import "server-only";
// The web process's wiring of schedules: its database, its Temporal client and
// task queue. Routes, actions and the page call these.
import { getDb } from "../../db/server/db";
import { getConfig } from "../../config/server/config";
import { getTemporalClient } from "../../temporal/server/client";
import type { BackfillInput, ScheduleCreateInput, SchedulePatch } from "../schemas";
import { backfillSchedule, createSchedule, deleteSchedule, getSchedule, listSchedules, pauseSchedule, resumeSchedule, triggerSchedule, updateSchedule, type ScheduleDeps } from "./store";

type Actor = { id: string };

const deps = (): ScheduleDeps => ({ db: getDb(), temporal: getTemporalClient(), taskQueue: getConfig().temporal.taskQueue });

export const schedules = {
  list: (graph?: string) => listSchedules(deps(), graph),
  get: (id: string) => getSchedule(deps(), id),
  create: (input: ScheduleCreateInput, actor: Actor) => createSchedule(deps(), input, actor),
  update: (id: string, patch: SchedulePatch, actor: Actor) => updateSchedule(deps(), id, patch, actor),
  pause: (id: string, note: string | undefined, actor: Actor) => pauseSchedule(deps(), id, note, actor),
  resume: (id: string, actor: Actor) => resumeSchedule(deps(), id, actor),
  trigger: (id: string, actor: Actor) => triggerSchedule(deps(), id, actor),
  backfill: (input: BackfillInput, actor: Actor) => backfillSchedule(deps(), input, actor),
  remove: (id: string, actor: Actor) => deleteSchedule(deps(), id, actor),
};
