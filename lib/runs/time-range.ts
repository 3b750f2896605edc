// The runs list's time range. The browser's datetime-local inputs hold a wall
// time without a zone; the URL and the API carry ISO instants, converted here
// in the browser so "from 09:00" means 09:00 where the user is, not on the server.

const LOCAL_INPUT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const MINUTE_MS = 60_000;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/**
 * A datetime-local value (wall time in this runtime's zone) as an ISO instant;
 * `end` makes a minute-precision value cover its whole minute. "" for an empty
 * or unreadable value.
 */
export function localInputToIso(value: string, { end = false }: { end?: boolean } = {}): string {
  if (!LOCAL_INPUT.test(value)) return "";
  // Without an offset, ECMAScript reads a date-time string as local time.
  const ms = new Date(value).getTime();
  if (Number.isNaN(ms)) return "";
  const minutePrecision = value.length === 16;
  return new Date(end && minutePrecision ? ms + MINUTE_MS - 1 : ms).toISOString();
}

/** An ISO instant (or a legacy zone-less value, read as local) as a datetime-local value in this runtime's zone; "" when unreadable. */
export function isoToLocalInput(value: string | null): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The API query for the list: `from`/`to` without a zone (typed into the URL
 * by hand, or bookmarked before the URL carried instants) are read in the
 * browser's zone, so the server never guesses.
 */
export function normalizeRangeQuery(params: URLSearchParams): string {
  const next = new URLSearchParams(params);
  for (const key of ["from", "to"] as const) {
    const value = next.get(key);
    if (value && LOCAL_INPUT.test(value)) {
      const iso = localInputToIso(value, { end: key === "to" });
      if (iso) next.set(key, iso);
      else next.delete(key);
    }
  }
  return next.toString();
}
