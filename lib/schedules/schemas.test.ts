// The schedule's input as every door checks it: cron and time zone checked by
// bounded parsing with messages naming what is wrong, exactly one of cron and
// interval, unknown keys refused, and the backfill range and its count.
import { describe, expect, it } from "vitest";
import { cronProblem, cronSets, timeZoneProblem } from "./cron";
import { firingsBetween } from "./firings";
import { backfillScheduleInput, describeSpec, scheduleCreateSchema, schedulePatchSchema } from "./schemas";

const base = { name: "nightly", graph: "support-triage", task: "reconcile the ledger" };
const issuesOf = (input: unknown) => {
  const parsed = scheduleCreateSchema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]);
};

describe("cron expressions", () => {
  it.each(["*/5 * * * *", "0 9 * * 1-5", "0 0 1 JAN *", "30 2 * * MON,FRI", "0 0 1-15/2 * *", "@daily", "5/15 * * * *"])("accepts %s", (expression) => {
    expect(cronProblem(expression)).toBeNull();
  });
  it.each([
    ["61 * * * *", "minute: 61 is outside 0-59"],
    ["* * * *", "a cron expression has 5 fields (minute hour day-of-month month day-of-week), not 4"],
    ["* 24 * * *", "hour: 24 is outside 0-23"],
    ["* * 0 * *", "day of month: 0 is outside 1-31"],
    ["* * * FOO *", 'month: "FOO" is not a number or a name'],
    ["*/0 * * * *", 'minute: the step of "*/0" must be a whole number from 1'],
    ["10-5 * * * *", 'minute: the range "10-5" runs backwards'],
    ["@often", "unknown shorthand @often (use one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly)"],
    ["", "give a cron expression, e.g. */5 * * * *"],
  ])("refuses %j: %s", (expression, message) => {
    expect(cronProblem(expression)).toBe(message);
  });
  it("refuses a long hostile expression at once, by length", () => {
    expect(cronProblem(`${"1,".repeat(5000)}1 * * * *`)).toBe("a cron expression has at most 120 characters");
  });
  it("expands fields, folding Sunday 7 into 0", () => {
    const sets = cronSets("0,30 9-10 * * 7");
    expect([...sets.minute]).toEqual([0, 30]);
    expect([...sets.hour]).toEqual([9, 10]);
    expect([...sets.dayOfWeek]).toEqual([0]);
  });
});

describe("time zones", () => {
  it("accepts IANA names and UTC, refuses others with the name", () => {
    expect(timeZoneProblem("Europe/Paris")).toBeNull();
    expect(timeZoneProblem("UTC")).toBeNull();
    expect(timeZoneProblem("Mars/Olympus")).toBe('unknown time zone "Mars/Olympus" (use an IANA name such as UTC or Europe/Paris)');
  });
});

describe("scheduleCreateSchema", () => {
  it("fills the defaults of an interval schedule", () => {
    expect(scheduleCreateSchema.parse({ ...base, intervalSeconds: 300 })).toEqual({ ...base, version: null, cron: null, intervalSeconds: 300, timeZone: "UTC", jitterSeconds: 0, context: {}, overlap: "skip", failureLimit: 3 });
  });
  it("wants exactly one of cron and interval, naming the field", () => {
    expect(issuesOf(base)).toEqual([["cron", "give a cron expression or an interval in seconds"]]);
    expect(issuesOf({ ...base, cron: "* * * * *", intervalSeconds: 60 })).toEqual([["intervalSeconds", "give a cron expression or an interval, not both"]]);
  });
  it("names each bad field", () => {
    expect(issuesOf({ ...base, intervalSeconds: 2 })).toEqual([["intervalSeconds", "the interval is at least 5 seconds"]]);
    expect(issuesOf({ ...base, cron: "0 25 * * *" })).toEqual([["cron", "hour: 25 is outside 0-23"]]);
    expect(issuesOf({ ...base, intervalSeconds: 60, jitterSeconds: 7200 })).toEqual([["jitterSeconds", "jitter is at most 3600 seconds"]]);
    expect(issuesOf({ ...base, intervalSeconds: 60, failureLimit: 0 })).toEqual([["failureLimit", "pause after at least 1 failure"]]);
    expect(issuesOf({ ...base, intervalSeconds: 60, timeZone: "Nowhere" })[0]?.[0]).toBe("timeZone");
    expect(issuesOf({ ...base, intervalSeconds: 60, task: "  " })[0]?.[0]).toBe("task");
  });
  it("refuses unknown keys", () => {
    expect(issuesOf({ ...base, intervalSeconds: 60, priority: 1 })[0]?.[1]).toContain("priority");
  });
  it("a patch changes at least one field and knows no other key", () => {
    expect(schedulePatchSchema.safeParse({}).success).toBe(false);
    expect(schedulePatchSchema.safeParse({ owner: "me" }).success).toBe(false);
    expect(schedulePatchSchema.parse({ cron: null, intervalSeconds: 60 })).toEqual({ cron: null, intervalSeconds: 60 });
  });
});

describe("backfill", () => {
  const id = "sch_abcdefgh12345678";
  it("wants a range that ends after it starts and spans at most 31 days", () => {
    const backwards = backfillScheduleInput.safeParse({ id, from: "2026-02-02T00:00:00Z", to: "2026-02-01T00:00:00Z" });
    expect(backwards.success ? [] : backwards.error.issues.map((i) => i.path.join("."))).toEqual(["to"]);
    const long = backfillScheduleInput.safeParse({ id, from: "2026-01-01T00:00:00Z", to: "2026-03-01T00:00:00Z" });
    expect(long.success ? [] : long.error.issues.map((i) => i.path.join("."))).toEqual(["from"]);
  });
  it("counts an interval's firings from the epoch and a cron's in its time zone", () => {
    const from = new Date("2026-01-05T00:00:00Z");
    const to = new Date("2026-01-05T03:00:00Z");
    expect(firingsBetween({ cron: null, intervalSeconds: 3600, timeZone: "UTC" }, from, to, 20)).toBe(4);
    expect(firingsBetween({ cron: "0 9 * * *", intervalSeconds: null, timeZone: "UTC" }, new Date("2026-01-01T00:00:00Z"), new Date("2026-01-08T00:00:00Z"), 20)).toBe(7);
    // 09:00 in Paris is 08:00 UTC in January: one firing between 07:30 and 08:30 UTC.
    expect(firingsBetween({ cron: "0 9 * * *", intervalSeconds: null, timeZone: "Europe/Paris" }, new Date("2026-01-05T07:30:00Z"), new Date("2026-01-05T08:30:00Z"), 20)).toBe(1);
    expect(firingsBetween({ cron: "* * * * *", intervalSeconds: null, timeZone: "UTC" }, from, to, 20), "stops past the cap").toBe(21);
  });
  it("describes a spec in one phrase", () => {
    expect(describeSpec({ cron: null, intervalSeconds: 300, timeZone: "UTC" })).toBe("every 5 min");
    expect(describeSpec({ cron: "0 9 * * 1-5", intervalSeconds: null, timeZone: "Europe/Paris" })).toBe("cron 0 9 * * 1-5 (Europe/Paris)");
  });
});
