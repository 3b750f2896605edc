import "server-only";
// The web process's wiring of monitors: its database and the metrics reader.
// Routes, actions and the page call these.
import { getDb } from "../../db/server/db";
import { seriesValue } from "../../metrics/server/series-value";
import { monitorSeriesReader } from "../series";
import { highestSpendShare } from "../../spend-limits/server/share";
import type { AlertListQuery, MonitorCreateInput, MonitorPatch, MonitorPreviewQuery } from "../schemas";
import { createMonitor, deleteMonitor, getMonitor, listAlerts, listMonitors, updateMonitor } from "./store";

type Actor = { id: string };

const readSeries = monitorSeriesReader(seriesValue, undefined, highestSpendShare);

export const monitors = {
  list: () => listMonitors(getDb()),
  get: (id: string) => getMonitor(getDb(), id),
  alerts: (query: AlertListQuery) => listAlerts(getDb(), query),
  create: (input: MonitorCreateInput, actor: Actor) => createMonitor(getDb(), input, actor),
  update: (id: string, patch: MonitorPatch, actor: Actor) => updateMonitor(getDb(), id, patch, actor),
  remove: (id: string, actor: Actor) => deleteMonitor(getDb(), id, actor),
  /** What the condition's series reads now: the value a monitor would compare (the page's preview). */
  preview: async (query: MonitorPreviewQuery) => ({
    value: await readSeries(getDb(), { series: query.series, windowMinutes: query.windowMinutes, filters: query.filters, ...(query.stat ? { stat: query.stat } : {}), ...(query.label ? { label: query.label } : {}) }),
  }),
};
