// A bounded check of a cron expression before it reaches Temporal: five fields
// (minute hour day-of-month month day-of-week), each a comma list of `*`, a
// number, a range `a-b`, each optionally `/step`; month and weekday names
// (JAN, MON) as Temporal reads them; or one of the @hourly-style shorthands.
// Parsed by splitting, never by a user-supplied pattern, and the input is
// capped, so a hostile expression costs at most a few hundred steps.
// Browser-safe: the schedule form shows the same message the API answers.

export const CRON_MAX_LENGTH = 120;

const SHORTHANDS = ["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"] as const;

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
const WEEKDAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

interface FieldRule {
  name: string;
  min: number;
  max: number;
  names?: string[];
  /** The value of the first name (JAN is 1, SUN is 0). */
  nameBase?: number;
}

const FIELDS: FieldRule[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: MONTHS, nameBase: 1 },
  // 7 is Sunday too, as in most crons.
  { name: "day of week", min: 0, max: 7, names: WEEKDAYS, nameBase: 0 },
];

function isDigits(text: string): boolean {
  if (!text || text.length > 2) return false;
  for (const char of text) if (char < "0" || char > "9") return false;
  return true;
}

function valueOf(text: string, rule: FieldRule): number | null {
  if (isDigits(text)) return Number(text);
  const index = rule.names?.indexOf(text.toUpperCase()) ?? -1;
  return index >= 0 ? index + (rule.nameBase ?? 0) : null;
}

/** Why one item of a field's comma list is wrong, or null. */
function itemProblem(item: string, rule: FieldRule): string | null {
  const [range, step, extra] = item.split("/");
  if (extra !== undefined) return `"${item}" has more than one "/"`;
  if (step !== undefined && (!isDigits(step) || Number(step) < 1)) return `the step of "${item}" must be a whole number from 1`;
  if (range === "*") return null;
  const bounds = (range ?? "").split("-");
  if (bounds.length > 2) return `"${item}" is not a value or a range a-b`;
  const values = bounds.map((bound) => valueOf(bound, rule));
  if (values.some((value) => value === null)) return `"${item}" is not a number${rule.names ? " or a name" : ""}`;
  for (const value of values as number[]) {
    if (value < rule.min || value > rule.max) return `${value} is outside ${rule.min}-${rule.max}`;
  }
  if (values.length === 2 && (values[0] as number) > (values[1] as number)) return `the range "${item}" runs backwards`;
  return null;
}

/** Why the expression is not a cron Temporal will run (one sentence naming the field), or null when it is. */
export function cronProblem(expression: string): string | null {
  const text = expression.trim();
  if (!text) return "give a cron expression, e.g. */5 * * * *";
  if (text.length > CRON_MAX_LENGTH) return `a cron expression has at most ${CRON_MAX_LENGTH} characters`;
  if (text.startsWith("@")) return (SHORTHANDS as readonly string[]).includes(text.toLowerCase()) ? null : `unknown shorthand ${text} (use one of ${SHORTHANDS.join(", ")})`;
  const fields = text.split(" ").filter(Boolean);
  if (fields.length !== FIELDS.length) return `a cron expression has 5 fields (minute hour day-of-month month day-of-week), not ${fields.length}`;
  for (const [index, field] of fields.entries()) {
    const rule = FIELDS[index] as FieldRule;
    const items = field.split(",");
    if (items.length > 60) return `the ${rule.name} field lists too many values`;
    for (const item of items) {
      const problem = itemProblem(item, rule);
      if (problem) return `${rule.name}: ${problem}`;
    }
  }
  return null;
}

const SHORTHAND_FIELDS: Record<(typeof SHORTHANDS)[number], string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

/** The values each field of a valid expression allows (day of week 7 folded into 0), and whether day fields were restricted. */
export interface CronSets {
  minute: Set<number>;
  hour: Set<number>;
  dayOfMonth: Set<number>;
  month: Set<number>;
  dayOfWeek: Set<number>;
  /** Cron's rule: when both day fields are restricted, a day matching either fires. */
  dayOr: boolean;
}

function expand(field: string, rule: FieldRule): Set<number> {
  const values = new Set<number>();
  for (const item of field.split(",")) {
    const [range = "*", step = "1"] = item.split("/");
    const bounds = range === "*" ? [rule.min, rule.max] : range.split("-").map((bound) => valueOf(bound, rule) as number);
    const low = bounds[0] as number;
    // "5/15" runs from 5 to the end, as Temporal reads it.
    const high = bounds.length === 2 ? (bounds[1] as number) : item.includes("/") ? rule.max : low;
    for (let value = low; value <= high; value += Number(step)) values.add(rule.name === "day of week" && value === 7 ? 0 : value);
  }
  return values;
}

/** The value sets of an expression cronProblem accepted (throws on one it refused). */
export function cronSets(expression: string): CronSets {
  const problem = cronProblem(expression);
  if (problem) throw new Error(problem);
  const text = expression.trim().toLowerCase();
  const fields = (text.startsWith("@") ? SHORTHAND_FIELDS[text as (typeof SHORTHANDS)[number]] : expression.trim()).split(" ").filter(Boolean);
  const sets = fields.map((field, index) => expand(field, FIELDS[index] as FieldRule));
  return {
    minute: sets[0] as Set<number>,
    hour: sets[1] as Set<number>,
    dayOfMonth: sets[2] as Set<number>,
    month: sets[3] as Set<number>,
    dayOfWeek: sets[4] as Set<number>,
    dayOr: fields[2] !== "*" && fields[4] !== "*",
  };
}

/** Whether wall-clock fields match the sets. */
export function cronMatches(sets: CronSets, at: { minute: number; hour: number; day: number; month: number; weekday: number }): boolean {
  if (!sets.minute.has(at.minute) || !sets.hour.has(at.hour) || !sets.month.has(at.month)) return false;
  const byMonthDay = sets.dayOfMonth.has(at.day);
  const byWeekday = sets.dayOfWeek.has(at.weekday);
  return sets.dayOr ? byMonthDay || byWeekday : byMonthDay && byWeekday;
}

/** Why the name is not a time zone this runtime knows (IANA, e.g. Europe/Paris), or null. */
export function timeZoneProblem(zone: string): string | null {
  if (!zone || zone.length > 64) return "give an IANA time zone such as UTC or Europe/Paris";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return null;
  } catch {
    return `unknown time zone "${zone}" (use an IANA name such as UTC or Europe/Paris)`;
  }
}
