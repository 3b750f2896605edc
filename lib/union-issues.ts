// zod says "Invalid input" when a value matches no branch of a union: true,
// and no help to the caller. These words name what the union takes instead —
// `images[0]` sent as `{ "id": … }` reads "use { attachmentId }, { data } or
// { url } (got { id })" — and, when the value plainly meant one branch (it has
// that branch's keys and no others), that branch's own precise errors.
// Structural types only: browser-safe, and no dependency on zod's internals.

/** The parts of a zod (v4) issue this module reads. */
export interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  /** invalid_union: each branch's issues, paths relative to the union's value. */
  errors?: readonly (readonly IssueLike[])[];
  /** invalid_type: the expected type ("string", "object"). */
  expected?: unknown;
  /** invalid_value: the literals the value had to be. */
  values?: readonly unknown[];
  /** unrecognized_keys: the keys a strict object refused. */
  keys?: readonly string[];
  /** The value checked, when parsed with `reportInput`. */
  input?: unknown;
}

/** An issue with its words settled, its path from the checked value's root. */
export interface PlainIssue {
  path: readonly PropertyKey[];
  message: string;
}

/**
 * Whether a branch's issue is a key the value does not have. With the union's
 * input (zod's `reportInput`, which the HTTP boundary turns on) it is read off
 * the value; without it, from zod's default words (a custom error hides them).
 */
function isMissing(issue: IssueLike, input: unknown): boolean {
  if (issue.code !== "invalid_type" || issue.path.length !== 1) return false;
  if (isPlainObject(input)) return !Object.hasOwn(input, issue.path[0] as PropertyKey);
  return /received undefined$/.test(issue.message);
}
const isUnknownKey = (issue: IssueLike) => issue.code === "unrecognized_keys" && issue.path.length === 0;
const isPlainObject = (value: unknown): value is object => typeof value === "object" && value !== null && !Array.isArray(value);

/** "a", "a or b", "a, b or c". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/** What one branch takes, in a few words: `{ attachmentId }` for an object branch, `"auto"` or `a number` for a scalar one; null when its issues do not say. */
function branchShape(issues: readonly IssueLike[]): string | null {
  const keys = [...new Set(issues.filter((i) => i.code === "invalid_type" && i.path.length === 1).map((i) => String(i.path[0])))];
  if (keys.length) return `{ ${keys.join(", ")} }`;
  const root = issues.find((i) => i.path.length === 0 && i.code !== "unrecognized_keys");
  if (root?.code === "invalid_value" && root.values?.length) return orList(root.values.map((v) => JSON.stringify(v)));
  if (root?.code === "invalid_type" && typeof root.expected === "string") return root.expected === "object" ? "an object" : root.expected === "array" ? "an array" : `a ${root.expected}`;
  return null;
}

/** A branch the value is not even the kind of: a missing or unknown key, or the wrong type or literal at the top. */
const isMismatch = (issue: IssueLike, input: unknown) =>
  isMissing(issue, input) || isUnknownKey(issue) || (issue.path.length === 0 && (issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union"));

/** The branch the value plainly meant: the only one it is the right kind for (its errors are then the useful ones). */
function meantBranch(branches: readonly (readonly IssueLike[])[], input: unknown): readonly IssueLike[] | null {
  const close = branches.filter((issues) => issues.length > 0 && !issues.some((i) => isMismatch(i, input)));
  return close.length === 1 ? (close[0] ?? null) : null;
}

/**
 * The issues as a caller should read them: an invalid_union becomes either the
 * meant branch's issues (their paths under the union's) or one issue naming
 * the alternatives; every other issue passes unchanged.
 */
export function explainUnions(issues: readonly IssueLike[]): PlainIssue[] {
  return issues.flatMap((issue): PlainIssue[] => {
    const branches = issue.errors;
    if (issue.code !== "invalid_union" || !branches?.length) return [{ path: issue.path, message: issue.message }];
    const meant = meantBranch(branches, issue.input);
    if (meant) return explainUnions(meant.map((i) => ({ ...i, path: [...issue.path, ...i.path] })));
    const shapes = branches.map(branchShape);
    if (shapes.some((s) => s === null)) return [{ path: issue.path, message: issue.message }];
    const unknown = [...new Set(branches.flatMap((b) => b.filter(isUnknownKey).flatMap((i) => i.keys ?? [])))];
    const got = unknown.length ? ` (got { ${unknown.join(", ")} })` : "";
    const alternatives = orList([...new Set(shapes as string[])]);
    // Object branches read as "use { a } or { b }"; scalars as "expected a number or \"auto\"".
    return [{ path: issue.path, message: shapes.every((s) => s?.startsWith("{")) ? `use ${alternatives}${got}` : `expected ${alternatives}${got}` }];
  });
}

/**
 * Parse options for the HTTP boundary: zod then keeps each issue's input, so a
 * union's explanation can tell a missing key from a wrong one. The inputs stay
 * on the server: zodIssues keeps only paths and words.
 */
export const REPORT_INPUT = { reportInput: true } as const;
