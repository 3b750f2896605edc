// How many times a schedule fires in a past range: the bound a backfill is
// checked against before Temporal is asked to start them. Intervals count
// from the epoch, as Temporal's do; a cron is walked minute by minute in the
// schedule's time zone (at most 31 days, so at most 44,640 steps, stopping at
// the cap). Jitter is ignored: it delays a firing, it adds none.
import { cronMatches, cronSets } from "./cron";

interface Spec {
  cron: string | null;
  intervalSeconds: number | null;
  timeZone: string;
}

/** The zone's offset from UTC at an instant, in milliseconds (its wall clock minus UTC). */
function zoneOffsetMs(zone: string, at: Date, format: Intl.DateTimeFormat): number {
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour) % 24, Number(parts.minute), Number(parts.second));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** Firings in [from, to], counted up to `cap + 1` (enough to say "more than cap"). */
export function firingsBetween(spec: Spec, from: Date, to: Date, cap: number): number {
  if (spec.intervalSeconds) {
    const every = spec.intervalSeconds * 1000;
    return Math.min(cap + 1, Math.max(0, Math.floor(to.getTime() / every) - Math.ceil(from.getTime() / every) + 1));
  }
  if (!spec.cron) return 0;
  const sets = cronSets(spec.cron);
  const format = new Intl.DateTimeFormat("en-US", { timeZone: spec.timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
  let count = 0;
  let offset = 0;
  let offsetHour = -1;
  const start = Math.ceil(from.getTime() / 60_000) * 60_000;
  for (let t = start; t <= to.getTime() && count <= cap; t += 60_000) {
    const hour = Math.floor(t / 3_600_000);
    if (hour !== offsetHour) {
      offset = zoneOffsetMs(spec.timeZone, new Date(t), format);
      offsetHour = hour;
    }
    const wall = new Date(t + offset);
    if (cronMatches(sets, { minute: wall.getUTCMinutes(), hour: wall.getUTCHours(), day: wall.getUTCDate(), month: wall.getUTCMonth() + 1, weekday: wall.getUTCDay() })) count++;
  }
  return count;
}
