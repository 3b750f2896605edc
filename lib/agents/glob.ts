// Tool-name globs for approval rules. Tool names are flat identifiers (no
// path separators), so `*` (any run of characters) and `?` (one character)
// are all a pattern needs; a full path-glob library would add nothing.

const cache = new Map<string, RegExp>();

/** Compiles a glob such as `ledger_*` or `crm__delete_?` to an anchored regular expression. */
export function globToRegExp(pattern: string): RegExp {
  let compiled = cache.get(pattern);
  if (!compiled) {
    const source = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
    compiled = new RegExp(`^${source}$`);
    cache.set(pattern, compiled);
  }
  return compiled;
}

/** Whether a tool name matches a glob. */
export function matchesGlob(pattern: string, name: string): boolean {
  return globToRegExp(pattern).test(name);
}
