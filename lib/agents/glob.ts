// Tool-name globs for approval rules. Tool names are flat identifiers (no
// path separators), so `*` (any run of characters) and `?` (one character)
// are all a pattern needs. Patterns come from graph authors and names from
// models, so matching must never backtrack: a regular expression compiled from
// `*a*a*a*…b` takes exponential time on a long `aaaa…` name (ReDoS). The
// two-pointer wildcard match below is O(pattern × name) at worst, with no regex.

/** Whether a tool name matches a glob such as `ledger_*` or `crm__delete_?` (the whole name). */
export function matchesGlob(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  // Where the last `*` was and which name position it is currently standing for.
  let star = -1;
  let starMatch = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === "?" || pattern[p] === name[n])) {
      p++;
      n++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      starMatch = n;
    } else if (star !== -1) {
      // Let the last `*` swallow one more character and retry from there; earlier
      // stars never need revisiting, which is what keeps this linear per star.
      p = star + 1;
      n = ++starMatch;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}
