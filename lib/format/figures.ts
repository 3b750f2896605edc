// How the product writes its figures, once: a moment in time, a span of time,
// a duration, money and counts. Every page, the dashboard, the monitors and the
// alerts call these, so one figure never reads two ways ("$0" here, "$0.0000"
// there; "1:44:54 AM" here, "01:44" there). Browser-safe and pure: the locale
// is the reader's (the browser's default) unless a caller passes one, and the
// clock is always 24-hour, as the trace and the dashboard already were.

/** The one date-time style: "Nov 29, 2026, 01:44:54" in en-US, "29.11.2026, 01:44:54" in de-DE. */
const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "medium", hourCycle: "h23" };

const formats = new Map<string, Intl.DateTimeFormat>();

/** One Intl formatter per locale (they are costly to build, and a 5,000-row list formats 5,000 times). */
function dateTimeFormat(locale: string | undefined): Intl.DateTimeFormat {
  const key = locale ?? "";
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(locale, DATE_TIME)));
  return format;
}

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A moment: "Nov 29, 2026, 01:44:54" (the reader's locale and zone, 24-hour); "—" for a value that is not a time. */
export function formatDateTime(value: string | number | Date, locale?: string): string {
  const date = toDate(value);
  return date ? dateTimeFormat(locale).format(date) : "—";
}

/** From one moment to another, the shared parts said once: "Nov 29, 2026, 01:13:00 – 01:14:00". */
export function formatDateTimeRange(from: string | number | Date, to: string | number | Date, locale?: string): string {
  const start = toDate(from);
  const end = toDate(to);
  if (!start || !end) return "—";
  if (end.getTime() < start.getTime()) return `${dateTimeFormat(locale).format(start)} – ${dateTimeFormat(locale).format(end)}`;
  return dateTimeFormat(locale).formatRange(start, end);
}

const axisTime = new Map<string, Intl.DateTimeFormat>();

/**
 * A chart axis's tick: the time of day on the same 24-hour clock ("14:05"), or the day ("Nov 29") when the ticks
 * are days apart. Only where a caption beside the chart gives the full moments (the dashboard's range line).
 */
export function formatAxisTime(value: string | number | Date, daily: boolean, locale?: string): string {
  const date = toDate(value);
  if (!date) return "";
  const key = `${locale ?? ""}|${daily}`;
  let format = axisTime.get(key);
  if (!format) axisTime.set(key, (format = new Intl.DateTimeFormat(locale, daily ? { month: "short", day: "numeric" } : { hour: "2-digit", minute: "2-digit", hourCycle: "h23" })));
  return format.format(date);
}

/** A duration in ms: "350 ms", "2.4 s", "20 min 12 s", "45 min", "3 h 5 min"; "—" when there is none to say. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  // Whole seconds from here: 59.6 s of a minute would otherwise read "1 min 60 s".
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  return minutes % 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${Math.floor(minutes / 60)} h`;
}

/** What a cost is called when some model of it has no price: never "$0", which would say it was free. */
export const UNPRICED = "unpriced";

/**
 * US dollars: "$0" (free, e.g. the demo models), "$0.0042" under a cent,
 * "< $0.0001" for a cost too small for four places (never "$0.0000", which
 * reads as free), "$1.23" from a cent up; `null` (a model without a price)
 * is "unpriced".
 */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return UNPRICED;
  if (usd < 0) return `−${formatCost(-usd)}`;
  if (usd === 0) return "$0";
  if (usd < 0.0001) return "< $0.0001";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A count with thousands separators: "12,345". */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** Tokens in and out as one number: "1,234 tok". */
export function formatTokens(usage: { inputTokens: number; outputTokens: number }): string {
  return `${formatCount(usage.inputTokens + usage.outputTokens)} tok`;
}

/** A score 0..1 (an online evaluation's, a judge's) with two decimals, 0.83; "—" for none. */
export function formatScore(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(2);
}
