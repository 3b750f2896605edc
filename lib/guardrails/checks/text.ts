// Shared by the checks: how much of a text they read, how many findings they
// keep, and character classes by code unit. Plain loops over char codes, no
// locale, no clock: the same text gives the same verdict in a workflow replay,
// on the worker and in the designer's browser.
import type { GuardrailFinding } from "../schemas";

/** A longer text is checked on its first this-many characters (the verdict says so): nothing a user sends runs unbounded. */
export const MAX_CHECKED_CHARS = 1_000_000;

/** Findings one check keeps; past it, one finding covers the rest of the checked text, so masking errs on the side of hiding. */
export const MAX_FINDINGS = 10_000;

/** The part of `text` the checks read, and the clause a verdict's reason ends with when that is not all of it. */
export function checkedPart(text: string): { text: string; note: string } {
  if (text.length <= MAX_CHECKED_CHARS) return { text, note: "" };
  return { text: text.slice(0, MAX_CHECKED_CHARS), note: ` (only the first ${formatCount(MAX_CHECKED_CHARS)} of its ${formatCount(text.length)} characters were checked)` };
}

/** 1234567 → "1,234,567", the same on every machine (toLocaleString depends on the locale). */
export function formatCount(value: number): string {
  const digits = String(Math.trunc(value));
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** "1 match" / "3 matches". */
export function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** Collects findings up to MAX_FINDINGS; the one past the limit becomes a span to the end of the checked text. */
export class FindingList {
  readonly items: GuardrailFinding[] = [];
  private full = false;

  constructor(private readonly textLength: number) {}

  /** False once the list is full (the caller stops scanning). */
  add(detector: string, start: number, end: number): boolean {
    if (this.full || end <= start) return !this.full;
    if (this.items.length >= MAX_FINDINGS) {
      this.items.push({ detector, start, end: this.textLength });
      this.full = true;
      return false;
    }
    this.items.push({ detector, start, end });
    return true;
  }

  get isFull(): boolean {
    return this.full;
  }
}

export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

export function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

export function isUpperAscii(code: number): boolean {
  return code >= 65 && code <= 90;
}

export function isAsciiAlnum(code: number): boolean {
  return isDigit(code) || isAsciiLetter(code);
}

/** A letter or digit in any script, or `_`: what a whole word is made of (deny-list boundaries). */
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

export function isWordCharAt(text: string, index: number): boolean {
  if (index < 0 || index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (code < 128) return isAsciiAlnum(code) || code === 95;
  // Read the whole code point (a surrogate pair's second half alone is no letter).
  const point = text.codePointAt(index);
  const start = code >= 0xdc00 && code <= 0xdfff && index > 0 ? text.codePointAt(index - 1) : point;
  return WORD_CHAR.test(String.fromCodePoint(start ?? code));
}
