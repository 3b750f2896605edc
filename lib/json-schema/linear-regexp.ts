// Regular expressions from users (a `pattern` or `patternProperties` key in an
// agent's answer schema or an experiment's json_schema scorer) run on RE2
// (re2js, a pure-JS port), never on V8's backtracking engine: `^(a+)+$` over
// 38 a's and a "!" takes V8 hours of CPU, RE2 microseconds, because RE2 matches
// in time linear in the input whatever the pattern (issue 36 §3). The price is
// RE2's syntax: backreferences and lookaround have no linear-time algorithm, so
// a pattern using them is refused when its schema is saved, naming the pattern.
import type { CodeOptions } from "ajv";
import { RE2JS } from "re2js";

type RegExpEngine = NonNullable<CodeOptions["regExp"]>;

/** A pattern RE2 cannot compile (backreference, lookaround, a repeat above 1000…), said in one sentence. */
export class NonLinearPatternError extends Error {
  constructor(
    readonly pattern: string,
    reason: string,
  ) {
    super(`pattern ${JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern)} cannot be matched in linear time (${reason}); backreferences and lookaround are not supported`);
    this.name = "NonLinearPatternError";
  }
}

/** Compiles an ECMAScript-syntax pattern for RE2, or throws NonLinearPatternError. */
export function compileLinear(pattern: string): RE2JS {
  try {
    // translateRegExp maps the ECMAScript spellings RE2 lacks (`\u0041`, `(?<name>…)`, `\/`) to RE2's.
    return RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : String(error);
    throw new NonLinearPatternError(pattern, reason);
  }
}

/**
 * Ajv's `code.regExp` engine. Ajv passes the "u" flag, which RE2 needs no
 * word for (it always reads code points). `test` finds a match anywhere, as
 * RegExp#test does, so `pattern` keeps JSON Schema's unanchored meaning.
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string): { test: (text: string) => boolean; toString: () => string } => {
    const compiled = compileLinear(pattern);
    // toString keys Ajv's cache of compiled patterns: one entry per pattern text.
    return { test: (text: string) => compiled.test(text), toString: () => `re2:${pattern}` };
  },
  // Only read when Ajv writes standalone code, which this app never does.
  { code: 'require("re2js").RE2JS.compile' },
);
