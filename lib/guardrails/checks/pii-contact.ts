// Email addresses and phone numbers, found by linear scans of char codes (no
// backtracking regex: a user's text must never make a check slow).
import type { GuardrailFinding } from "../schemas";
import { FindingList, isAsciiAlnum, isAsciiLetter, isDigit } from "./text";

const DOT = 46;
const DASH = 45;

function isLocalChar(code: number): boolean {
  // letters, digits and . _ % + -
  return isAsciiAlnum(code) || code === DOT || code === 95 || code === 37 || code === 43 || code === DASH;
}

function isDomainChar(code: number): boolean {
  return isAsciiAlnum(code) || code === DOT || code === DASH;
}

/**
 * An email address: a local part, "@", and a domain of dot-separated labels whose last is 2+ letters.
 * Each "@" reads left and right only to the nearest character that cannot be in an address (another
 * "@" included), so the scan is linear.
 */
export function findEmails(text: string, findings: FindingList): void {
  let from = 0;
  while (!findings.isFull) {
    const at = text.indexOf("@", from);
    if (at < 0) return;
    from = at + 1;
    let start = at;
    while (start > 0 && isLocalChar(text.charCodeAt(start - 1))) start -= 1;
    while (start < at && text.charCodeAt(start) === DOT) start += 1;
    if (start === at) continue;
    let end = at + 1;
    while (end < text.length && isDomainChar(text.charCodeAt(end))) end += 1;
    while (end > at + 1 && (text.charCodeAt(end - 1) === DOT || text.charCodeAt(end - 1) === DASH)) end -= 1;
    if (!isDomain(text, at + 1, end)) continue;
    findings.add("email", start, end);
    from = end;
  }
}

function isDomain(text: string, start: number, end: number): boolean {
  // Look for the last dot within the domain only: lastIndexOf would read back through the whole text.
  let lastDot = end - 1;
  while (lastDot > start && text.charCodeAt(lastDot) !== DOT) lastDot -= 1;
  if (lastDot <= start || end - lastDot - 1 < 2) return false;
  for (let index = lastDot + 1; index < end; index += 1) if (!isAsciiLetter(text.charCodeAt(index))) return false;
  if (!isAsciiAlnum(text.charCodeAt(start))) return false;
  return text.slice(start, end).indexOf("..") < 0;
}

/** Characters that may separate a phone number's digit groups: space - . / ( ). */
function isPhoneSeparator(code: number): boolean {
  return code === 32 || code === DASH || code === DOT || code === 47 || code === 40 || code === 41;
}

/** Separators next to a number that mean it is part of something else (a sum, a decimal, a range, a path). */
function isNumberContext(code: number): boolean {
  return isAsciiAlnum(code) || code === DOT || code === 44 || code === 47 || code === DASH || code === 43 || code === 95;
}

/** Most digits a candidate may have before the scan gives up on it (15 plus a "00" prefix and slack). */
const MAX_PHONE_DIGITS = 17;

interface PhoneCandidate {
  start: number;
  end: number;
  /** Digits per group, in order. */
  groups: number[];
  digits: number;
  separators: string;
  /** Where the scan resumes. */
  next: number;
}

function readCandidate(text: string, start: number): PhoneCandidate {
  let at = start;
  if (text.charCodeAt(at) === 43) at += 1;
  const groups: number[] = [];
  let digits = 0;
  let separatorRun = 0;
  let end = at;
  let separators = "";
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (isDigit(code)) {
      if (separatorRun > 0 || groups.length === 0) groups.push(0);
      groups[groups.length - 1]! += 1;
      digits += 1;
      separatorRun = 0;
      end = at + 1;
      if (digits > MAX_PHONE_DIGITS) break;
    } else if (isPhoneSeparator(code) && separatorRun < 2) {
      separatorRun += 1;
      if (!separators.includes(text[at]!)) separators += text[at];
    } else break;
    at += 1;
  }
  // A closing parenthesis of the area code belongs to the number only when digits follow; the span ends on a digit.
  return { start, end, groups, digits, separators, next: Math.max(at, start + 1) };
}

/** 2024-01-15, 15.01.2024, 1/2/2024: three groups of a date's shape, joined by - . or /. */
function looksLikeDate(candidate: PhoneCandidate): boolean {
  const [a = 0, b = 0, c = 0] = candidate.groups;
  if (candidate.groups.length !== 3 || /[ ()]/.test(candidate.separators)) return false;
  return (a === 4 && b <= 2 && c <= 2) || (a <= 2 && b <= 2 && (c === 4 || c === 2));
}

function isPhone(text: string, candidate: PhoneCandidate): boolean {
  const first = text.charCodeAt(candidate.start);
  const { groups, digits } = candidate;
  if (digits > 15 + 2) return false;
  if (first === 43) return digits >= 7 && digits <= 15;
  const body = text.slice(candidate.start, candidate.end);
  if (body.startsWith("00") && body.charCodeAt(2) !== 48) return digits - 2 >= 9 && digits - 2 <= 15;
  if (digits < 7 || digits > 15 || looksLikeDate(candidate)) return false;
  if (first === 40) return groups.length >= 2 && text.charCodeAt(candidate.start + 1 + groups[0]!) === 41;
  if (groups.length === 1) return first === 48 && body.charCodeAt(1) !== 48 && (digits === 10 || digits === 11);
  if (first === 48) return groups.every((size) => size >= 1 && size <= 8);
  // The North American shape 555-123-4567 (a thousands grouping ends in three digits, not four).
  return groups.length === 3 && groups[0] === 3 && groups[1] === 3 && groups[2] === 4;
}

/**
 * A phone number: international (+ or 00 and 7–15 digits) or national (a trunk 0, an area code in
 * parentheses, or 555-123-4567), digits in groups split by single spaces, dashes, dots or slashes.
 * Dates, amounts and plain numbers are not phone numbers: a number without "+", "(" or a leading 0
 * must have the North American shape, and date shapes are refused.
 */
export function findPhones(text: string, findings: FindingList, taken: readonly GuardrailFinding[]): void {
  const sorted = [...taken].sort((a, b) => a.start - b.start || a.end - b.end);
  let next = 0;
  let index = 0;
  while (index < text.length && !findings.isFull) {
    const code = text.charCodeAt(index);
    const startsNumber = isDigit(code) || ((code === 43 || code === 40) && isDigit(text.charCodeAt(index + 1)));
    if (!startsNumber || isNumberContext(text.charCodeAt(index - 1))) {
      index += 1;
      continue;
    }
    const candidate = readCandidate(text, index);
    const glued = isAsciiLetter(text.charCodeAt(candidate.end)) || isDigit(text.charCodeAt(candidate.end));
    // A card or an IBAN already covers these digits: that finding says more than "phone".
    while (next < sorted.length && sorted[next]!.end <= candidate.start) next += 1;
    const overlaps = next < sorted.length && sorted[next]!.start < candidate.end;
    if (!glued && !overlaps && isPhone(text, candidate)) findings.add("phone", candidate.start, candidate.end);
    index = candidate.next;
  }
}
