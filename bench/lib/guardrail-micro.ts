// The pure deterministic guardrail checks (lib/guardrails/checks), timed one
// kind at a time on the same ~4 kB text: what an inline check costs a workflow
// activation. Each case runs for a fixed time after a warm-up (JIT, the regex
// cache), and reports the median of several batches in µs per check.
import { compileRegexCheck, evaluateDeterministicCheck, type DeterministicCheck } from "../../lib/guardrails/checks";

/**
 * ~4 kB of support-ticket prose with the digits such texts carry (order and
 * invoice numbers, dates, amounts, a phone-like reference) but no PII, so each
 * check scans the whole text and passes — the common case on the run's path.
 */
export function benchText(chars = 4096): string {
  const sentences = [
    "Customer wrote about order A-1002 placed on 2026-11-21 for 3 desks at 129.90 USD each.",
    "The invoice INV-2231 lists a shipping fee of 14.50 and a discount code WINTER-15.",
    "Tracking number 1Z 999 AA1 says the parcel left the depot at 07:45 and is due by Friday.",
    "They asked whether the warranty covers scratches and how long a refund takes to arrive.",
    "Reference ticket #48213, account tier gold, region eu-west, last contact 4 days ago.",
    "Please summarise the situation, check the order status and propose the next step politely.",
  ];
  let text = "";
  for (let i = 0; text.length < chars; i++) text += `${sentences[i % sentences.length]} `;
  return text.slice(0, chars);
}

/** The cases: each check kind as the run bench's guardrails use it, and each PII detector alone. */
export const MICRO_CASES: ReadonlyArray<{ label: string; check: DeterministicCheck }> = [
  { label: "max_length 8,000", check: { type: "max_length", chars: 8000 } },
  { label: "regex (password|secret)\\s*[:=]", check: { type: "regex", pattern: "(?:password|secret)\\s*[:=]", caseInsensitive: true } },
  { label: "regex \\b\\d{3}-\\d{2}-\\d{4}\\b", check: { type: "regex", pattern: "\\b\\d{3}-\\d{2}-\\d{4}\\b", caseInsensitive: false } },
  { label: "deny_list, 20 terms", check: { type: "deny_list", terms: denyTerms(20), caseSensitive: false } },
  { label: "pii card (Luhn)", check: { type: "pii", detectors: ["card"] } },
  { label: "pii iban (mod 97)", check: { type: "pii", detectors: ["iban"] } },
  { label: "pii email", check: { type: "pii", detectors: ["email"] } },
  { label: "pii phone", check: { type: "pii", detectors: ["phone"] } },
  { label: "pii api_key", check: { type: "pii", detectors: ["api_key"] } },
  { label: "pii, all five detectors", check: { type: "pii", detectors: ["email", "phone", "card", "iban", "api_key"] } },
];

export function denyTerms(count: number): string[] {
  const base = ["confidential", "internal only", "do not share", "wire the funds", "gift card", "bitcoin", "password", "ssn", "kill switch", "jailbreak"];
  return Array.from({ length: count }, (_, i) => (i < base.length ? base[i]! : `${base[i % base.length]} ${i}`));
}

/** µs per call of `run`: the median of `batches` timed batches, each repeating it until ~`batchMs` elapsed. */
function timeIt(run: () => void, batches: number, batchMs: number): { medianUs: number; minUs: number } {
  for (let i = 0; i < 50; i++) run();
  const perCall: number[] = [];
  for (let b = 0; b < batches; b++) {
    let calls = 0;
    const started = performance.now();
    let elapsed = 0;
    while (elapsed < batchMs) {
      run();
      calls += 1;
      elapsed = performance.now() - started;
    }
    perCall.push((elapsed * 1000) / calls);
  }
  perCall.sort((a, b) => a - b);
  return { medianUs: perCall[Math.floor(perCall.length / 2)]!, minUs: perCall[0]! };
}

/** µs per check: the median of `batches` timed batches, each repeating the check until ~`batchMs` elapsed. */
export function timeCheck(check: DeterministicCheck, text: string, batches = 9, batchMs = 40): { medianUs: number; minUs: number; tripped: boolean } {
  const first = evaluateDeterministicCheck(check, text);
  return { ...timeIt(() => evaluateDeterministicCheck(check, text), batches, batchMs), tripped: first?.tripped ?? false };
}

/** Prints the table; returns the slowest case (µs) so the caller can say whether any check is worth a look. */
export function printMicroBench(chars = 4096): { label: string; medianUs: number } {
  const text = benchText(chars);
  console.log(`micro-bench: evaluateDeterministicCheck on a ${text.length.toLocaleString("en")}-character text (median of 9 batches, µs per check)`);
  let slowest = { label: "", medianUs: 0 };
  for (const { label, check } of MICRO_CASES) {
    const { medianUs, minUs, tripped } = timeCheck(check, text);
    console.log(`   ${label.padEnd(36)} ${medianUs.toFixed(1).padStart(9)} µs  (best batch ${minUs.toFixed(1)} µs)${tripped ? "  [tripped]" : ""}`);
    if (medianUs > slowest.medianUs) slowest = { label, medianUs };
  }
  // The baseline in the same run for the regex fix: the positional search alone, as findMatches ran before it
  // asked RE2's DFA whether the text matches at all (re2js's matcher backtracks from every offset).
  for (const { label, check } of MICRO_CASES) {
    if (check.type !== "regex") continue;
    const regex = compileRegexCheck(check);
    const before = timeIt(() => {
      const matcher = regex.matcher(text);
      while (matcher.find()) matcher.start();
    }, 9, 40);
    const after = timeCheck(check, text);
    console.log(`   ${label}: matcher only (before the fix) ${before.medianUs.toFixed(1)} µs, with the DFA test first ${after.medianUs.toFixed(1)} µs (${(before.medianUs / after.medianUs).toFixed(1)}× faster)`);
  }
  return slowest;
}
