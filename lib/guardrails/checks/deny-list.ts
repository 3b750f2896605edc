// Deny-list: whole words or phrases, found with indexOf on a case-folded copy
// of the text (linear per term; at most 500 terms of 200 characters).
import type { GuardrailCheck } from "../schemas";
import { FindingList, isWordCharAt } from "./text";

type DenyListCheck = Extract<GuardrailCheck, { type: "deny_list" }>;

/**
 * Lower case per UTF-16 unit, so every index in the folded copy is the same index in the text
 * (String#toLowerCase may change a string's length: "İ" becomes two units).
 */
export function foldCase(text: string): string {
  const lowered = text.toLowerCase();
  if (lowered.length === text.length) return lowered;
  let folded = "";
  for (let index = 0; index < text.length; index += 1) {
    const unit = text[index]!;
    const lower = unit.toLowerCase();
    folded += lower.length === 1 ? lower : unit;
  }
  return folded;
}

/**
 * Every occurrence of a term as a whole word or phrase: the characters around it are not letters or
 * digits where the term's own edge is one ("cat" is not found in "category"; "c++" is found in "c++,").
 */
export function findDeniedTerms(check: DenyListCheck, text: string, findings: FindingList): number {
  const haystack = check.caseSensitive ? text : foldCase(text);
  let termsFound = 0;
  for (const raw of check.terms) {
    const term = check.caseSensitive ? raw : foldCase(raw);
    if (term.length === 0) continue;
    const needsStartBoundary = isWordCharAt(term, 0);
    const needsEndBoundary = isWordCharAt(term, term.length - 1);
    let from = 0;
    let found = false;
    while (!findings.isFull) {
      const at = haystack.indexOf(term, from);
      if (at < 0) break;
      const end = at + term.length;
      from = at + 1;
      if (needsStartBoundary && isWordCharAt(text, at - 1)) continue;
      if (needsEndBoundary && isWordCharAt(text, end)) continue;
      found = true;
      findings.add("deny_list", at, end);
      from = end;
    }
    if (found) termsFound += 1;
  }
  return termsFound;
}
