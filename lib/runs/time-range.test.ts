import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoToLocalInput, localInputToIso, normalizeRangeQuery } from "./time-range";

// Node reads TZ when a Date needs it, so the tests pin a zone with an offset
// and daylight saving instead of depending on the machine's (UTC in CI).
const previousTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = "America/New_York";
});
afterAll(() => {
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});

describe("runs list time range", () => {
  it("reads a datetime-local value in the browser's zone", () => {
    expect(localInputToIso("2026-01-15T09:30"), "EST is UTC-5").toBe("2026-01-15T14:30:00.000Z");
    expect(localInputToIso("2026-07-15T09:30"), "EDT is UTC-4").toBe("2026-07-15T13:30:00.000Z");
  });

  it("makes the end of the range cover its whole minute", () => {
    expect(localInputToIso("2026-01-15T09:30", { end: true })).toBe("2026-01-15T14:30:59.999Z");
    expect(localInputToIso("2026-01-15T09:30:10", { end: true }), "a value with seconds is taken as is").toBe("2026-01-15T14:30:10.000Z");
  });

  it("shows an instant from the URL as local wall time, and round-trips", () => {
    expect(isoToLocalInput("2026-01-15T14:30:00.000Z")).toBe("2026-01-15T09:30");
    expect(isoToLocalInput(localInputToIso("2026-03-08T12:05"))).toBe("2026-03-08T12:05");
    expect(isoToLocalInput("2026-01-15T09:30"), "a legacy zone-less value stays as typed").toBe("2026-01-15T09:30");
  });

  it("refuses what is not a date", () => {
    expect(localInputToIso("")).toBe("");
    expect(localInputToIso("yesterday")).toBe("");
    expect(isoToLocalInput("not a date")).toBe("");
    expect(isoToLocalInput(null)).toBe("");
  });

  it("normalizes zone-less from/to in the API query and leaves instants and other filters alone", () => {
    const query = new URLSearchParams({ status: "completed", from: "2026-01-15T09:30", to: "2026-01-15T18:00:00.000Z" });
    expect(Object.fromEntries(new URLSearchParams(normalizeRangeQuery(query)))).toEqual({ status: "completed", from: "2026-01-15T14:30:00.000Z", to: "2026-01-15T18:00:00.000Z" });
    expect(new URLSearchParams(normalizeRangeQuery(new URLSearchParams({ to: "2026-01-15T09:30" }))).get("to")).toBe("2026-01-15T14:30:59.999Z");
  });
});
