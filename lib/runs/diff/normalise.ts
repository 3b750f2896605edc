// What two runs differ in by construction, taken out before their steps are
// compared (issue 37 §2): the ids the engine generates for a tree's runs (a
// `message_agent` result names its child run, `<root>.billing-1a2b3c4d`), other
// generated ids (UUIDs) and timestamps (ISO 8601 with a time, or a locale's
// day/month/year with a time). Two runs that
// did the same thing otherwise differ in exactly these, and the diff reported
// "1 changed" for them. A run id becomes its place in the tree (the same on both
// sides when the trees line up), so a reply from another sub-agent still differs.
// Only the comparison reads the normalised text; the page shows what was
// recorded. Pure and browser-safe.

/** A run of the tree, in the compared text. */
const runToken = (path: string) => `⟨run${path}⟩`;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?\b/g;
/** A date and time as a locale writes it (current_time's `local`: "29/11/2026, 13:20:05"); a date alone stays. */
const LOCAL_DATE_TIME = /\b\d{1,2}[/.]\d{1,2}[/.]\d{4},? \d{1,2}:\d{2}(?::\d{2})?\b/g;
/** A cheap test before the patterns: each needs a digit-dash pair or a digit-slash-or-dot pair. */
const MAYBE_GENERATED = /\d-|\d[/.]\d|[0-9a-f]{8}-/i;

const MIN_ID_LENGTH = 12;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A function that normalises a text of one run tree: each run id of the tree
 * (`paths`: run id → place, "" for the root) becomes `⟨run<place>⟩`, any other
 * UUID `⟨id⟩` and any ISO 8601 timestamp `⟨time⟩`. Returns the text itself when
 * nothing was replaced.
 */
export function treeNormaliser(paths: ReadonlyMap<string, string>): (text: string) => string {
  // Longest first, so a child's id is replaced whole rather than as its root's id with a suffix. The engine's ids
  // are `<agent>-<uuid>` and `<parent>.<agent>-<8 hex>`: a shorter one is no generated id, and may be a word.
  const ids = [...paths.keys()].filter((id) => id.length >= MIN_ID_LENGTH).sort((x, y) => y.length - x.length);
  const runIds = ids.length ? new RegExp(ids.map(escape).join("|"), "g") : null;
  // A child's id extends its parent's, so when every id starts with the shortest one, a text without it names none.
  const shortest = ids.at(-1) ?? "";
  const prefix = ids.every((id) => id.startsWith(shortest)) ? shortest : null;
  return (text) => {
    let out = text;
    if (runIds && (prefix === null || out.includes(prefix))) out = out.replace(runIds, (id) => runToken(paths.get(id) ?? ""));
    if (MAYBE_GENERATED.test(out)) out = out.replace(UUID, "⟨id⟩").replace(TIMESTAMP, "⟨time⟩").replace(LOCAL_DATE_TIME, "⟨time⟩");
    return out;
  };
}

/**
 * The fields as compared, only those whose normalised text differs from the
 * recorded one (so a step without generated ids carries nothing extra), or
 * undefined when there are none.
 */
export function normalisedFields(fields: Readonly<Record<string, string>>, normalise: (text: string) => string): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const name in fields) {
    const text = fields[name]!;
    const normal = normalise(text);
    if (normal !== text) (out ??= {})[name] = normal;
  }
  return out;
}
