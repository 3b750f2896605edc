import { describe, expect, it } from "vitest";
import { formatAxisTime, formatCost, formatCount, formatDateTime, formatDateTimeRange, formatDuration, formatTokens, UNPRICED } from "./figures";

// Fixed zone for the tests: the process's TZ decides the reader's zone (vitest runs in the machine's zone).
const AT = Date.UTC(2026, 10, 29, 1, 44, 54);
const local = (ms: number) => new Date(ms).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });

describe("formatDateTime: one style for every moment the product shows", () => {
  it("writes the date in the reader's locale and the time on a 24-hour clock with seconds", () => {
    const text = formatDateTime(new Date(AT).toISOString(), "en-US");
    expect(text, "medium date, then the 24-hour time").toMatch(/^[A-Z][a-z]{2} \d{1,2}, 2026, \d{2}:\d{2}:\d{2}$/);
    expect(text.endsWith(local(AT)), `${text} ends with the local 24-hour time ${local(AT)}`).toBe(true);
    expect(text, "never AM/PM").not.toMatch(/AM|PM/);
  });

  it("follows the locale's order of day and month, still 24-hour", () => {
    expect(formatDateTime(AT, "de-DE")).toMatch(/^\d{2}\.\d{2}\.2026, \d{2}:\d{2}:\d{2}$/);
    expect(formatDateTime(AT, "en-GB")).toMatch(/^\d{1,2} [A-Z][a-z]{2} 2026, \d{2}:\d{2}:\d{2}$/);
  });

  it("takes an ISO string, ms or a Date alike, and says — for what is not a time", () => {
    const iso = new Date(AT).toISOString();
    expect(formatDateTime(AT, "en-US")).toBe(formatDateTime(iso, "en-US"));
    expect(formatDateTime(new Date(AT), "en-US")).toBe(formatDateTime(iso, "en-US"));
    expect(formatDateTime("not a date", "en-US")).toBe("—");
  });

  it("writes a range with its shared date once, in the same style as a moment", () => {
    const range = formatDateTimeRange(AT, AT + 60_000, "en-US");
    const start = formatDateTime(AT, "en-US");
    expect(range.startsWith(start), `${range} starts as the moment ${start}`).toBe(true);
    expect(range, "the end time after a dash").toMatch(/\s–\s\d{2}:\d{2}:\d{2}$/);
    const days = formatDateTimeRange(AT, AT + 2 * 86_400_000, "en-US").split(/\s–\s/);
    expect(days, "two days apart: both moments in full").toEqual([start, formatDateTime(AT + 2 * 86_400_000, "en-US")]);
  });
});

describe("formatAxisTime: a chart's ticks on the same clock", () => {
  it("writes the time of day on a 24-hour clock, or the day when ticks are days apart", () => {
    expect(formatAxisTime(AT, false, "en-US")).toMatch(/^\d{2}:\d{2}$/);
    expect(formatAxisTime(AT, false, "en-US")).toBe(local(AT).slice(0, 5));
    expect(formatAxisTime(AT, true, "en-US")).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
  });
});

describe("formatDuration", () => {
  it.each([
    [0, "0 ms"],
    [4, "4 ms"],
    [999.4, "999 ms"],
    [1_000, "1.0 s"],
    [2_440, "2.4 s"],
    [59_940, "59.9 s"],
    [60_000, "1 min"],
    [119_600, "2 min"],
    [61_000, "1 min 1 s"],
    [20 * 60_000 + 12_000, "20 min 12 s"],
    [3 * 3_600_000 + 5 * 60_000, "3 h 5 min"],
    [2 * 3_600_000, "2 h"],
  ])("%d ms reads %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("has no figure for nothing, a negative or an endless span", () => {
    expect(formatDuration(null)).toBe("—");
    expect(formatDuration(undefined)).toBe("—");
    expect(formatDuration(-1)).toBe("—");
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe("—");
  });
});

describe("formatCost: one way to write money, and unpriced is never $0", () => {
  it.each([
    [0, "$0"],
    [0.00001, "< $0.0001"],
    [0.0042, "$0.0042"],
    [0.01, "$0.01"],
    [1.234, "$1.23"],
    [12_345.6, "$12,345.60"],
  ])("%d dollars reads %s", (usd, text) => {
    expect(formatCost(usd)).toBe(text);
  });

  it("never writes $0.0000 for a cost that is not zero", () => {
    for (const usd of [1e-9, 4e-5, 4.9e-5]) expect(formatCost(usd)).not.toMatch(/^\$0\.0+$/);
  });

  it("calls a cost without a price unpriced", () => {
    expect(formatCost(null)).toBe(UNPRICED);
    expect(formatCost(undefined)).toBe("unpriced");
    expect(formatCost(Number.NaN)).toBe("unpriced");
  });

  it("writes a negative amount (a delta) with a minus sign", () => {
    expect(formatCost(-0.5)).toBe("−$0.50");
  });
});

describe("counts and tokens", () => {
  it("groups thousands", () => {
    expect(formatCount(1234567.4)).toBe("1,234,567");
    expect(formatTokens({ inputTokens: 1000, outputTokens: 234 })).toBe("1,234 tok");
  });
});
