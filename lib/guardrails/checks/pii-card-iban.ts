// Card numbers and IBANs: candidates found by a linear scan, kept only when
// their check digits hold (Luhn for cards, ISO 7064 mod-97 for IBANs), so a
// random 16-digit order number is not a card and a random code is not an IBAN.
import { FindingList, isAsciiAlnum, isAsciiLetter, isDigit, isUpperAscii } from "./text";

/** The digit group starting at `start` and where the next group of its run starts (after one space or dash), or -1. */
function groupAt(text: string, start: number): { end: number; next: number } {
  let end = start;
  while (isDigit(text.charCodeAt(end))) end += 1;
  const separator = text.charCodeAt(end);
  const next = (separator === 32 || separator === 45) && isDigit(text.charCodeAt(end + 1)) ? end + 1 : -1;
  return { end, next };
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let value = digits.charCodeAt(index) - 48;
    if (double) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

function digitsBetween(text: string, start: number, end: number): string {
  let digits = "";
  for (let at = start; at < end; at += 1) if (isDigit(text.charCodeAt(at))) digits += text[at];
  return digits;
}

function isCardNumber(digits: string): boolean {
  const lead = digits.charCodeAt(0) - 48;
  if (lead < 2 || lead > 6) return false;
  let repeated = true;
  for (let index = 1; index < digits.length && repeated; index += 1) repeated = digits[index] === digits[0];
  return !repeated && luhnValid(digits);
}

/**
 * A card number: 13–19 digits, optionally grouped by single spaces or dashes, starting with 2–6
 * (the networks' issuer ranges: Mastercard 2/5, Amex and Diners 3, Visa 4, Discover and UnionPay 6),
 * not one digit repeated, passing Luhn. Within a longer run of groups ("4111 1111 1111 1111 123")
 * the card is the longest Luhn-valid window of whole groups from the leftmost group that starts one.
 * Each window reads at most 19 digits, so the scan is linear however long the run.
 */
export function findCards(text: string, findings: FindingList): void {
  let index = 0;
  while (index < text.length && !findings.isFull) {
    if (!isDigit(text.charCodeAt(index)) || isAsciiAlnum(text.charCodeAt(index - 1))) {
      index += 1;
      continue;
    }
    let start = index;
    while (start >= 0) {
      const first = groupAt(text, start);
      index = first.end;
      let count = 0;
      let found: { end: number; next: number } | null = null;
      for (let at = start, group = first; ; group = groupAt(text, at)) {
        count += group.end - at;
        if (count > 19) break;
        // A run glued to a letter ("4111…1111abc") is a code, not a card.
        const gluedToLetter = group.next < 0 && isAsciiLetter(text.charCodeAt(group.end));
        if (count >= 13 && !gluedToLetter && isCardNumber(digitsBetween(text, start, group.end))) found = group;
        if (group.next < 0) break;
        at = group.next;
      }
      if (found) {
        if (!findings.add("card", start, found.end)) return;
        index = found.end;
        start = found.next;
      } else start = first.next;
    }
  }
}

/** IBAN lengths by country (the SWIFT IBAN registry): the length tells where an IBAN written in groups ends. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24,
  DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28,
  HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20,
  LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29,
  RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29, VA: 22,
  VG: 24, XK: 20,
};

/** ISO 7064 mod 97-10 over the IBAN moved to start with its BBAN, letters as 10–35. */
export function ibanChecksumValid(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (let index = 0; index < moved.length; index += 1) {
    const code = moved.charCodeAt(index);
    if (isDigit(code)) remainder = (remainder * 10 + (code - 48)) % 97;
    else if (isUpperAscii(code)) remainder = (remainder * 100 + (code - 55)) % 97;
    else return false;
  }
  return remainder === 1;
}

/**
 * An IBAN: a known country code, two check digits and the country's BBAN length, written together
 * or in groups split by single spaces (upper or lower case), passing mod-97.
 */
export function findIbans(text: string, findings: FindingList): void {
  for (let index = 0; index + 4 <= text.length && !findings.isFull; index += 1) {
    const c0 = text.charCodeAt(index);
    if (!isAsciiLetter(c0) || isAsciiAlnum(text.charCodeAt(index - 1))) continue;
    if (!isAsciiLetter(text.charCodeAt(index + 1)) || !isDigit(text.charCodeAt(index + 2)) || !isDigit(text.charCodeAt(index + 3))) continue;
    const length = IBAN_LENGTHS[text.slice(index, index + 2).toUpperCase()];
    if (!length) continue;
    let collected = "";
    let at = index;
    while (collected.length < length && at < text.length) {
      const code = text.charCodeAt(at);
      if (isAsciiAlnum(code)) {
        collected += text[at]!.toUpperCase();
        at += 1;
      } else if (code === 32 && collected.length >= 4 && isAsciiAlnum(text.charCodeAt(at + 1))) at += 1;
      else break;
    }
    if (collected.length !== length || isAsciiAlnum(text.charCodeAt(at))) continue;
    if (!ibanChecksumValid(collected)) continue;
    if (!findings.add("iban", index, at)) return;
    index = at - 1;
  }
}
