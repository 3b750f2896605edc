// Tool calls a guardrail with the action `inbox` sent to an approver (issue 40
// §1): the card in the inbox and on the run page says which guardrail held the
// call and why. Part of the contract: pure, browser-safe and zod-free, so the
// workflow and the inbox word a hold alike.
import type { ApprovalRequest } from "./types";

/** Whether a guardrail (rather than an approval rule) sent this call to the inbox. */
export function isGuardrailHold(approval: Pick<ApprovalRequest, "guardrail">): boolean {
  return typeof approval.guardrail === "string" && approval.guardrail.length > 0;
}

/**
 * Why a guardrail held a call, e.g. `held by guardrail large-transfers (json_schema): The text does not match the schema …`.
 * Only the guardrail's name, its check and its verdict's sentence: a verdict never quotes the text it found, so the
 * line cannot show a value a mask hid. Null for an approval no guardrail asked.
 */
export function guardrailHoldSentence(approval: Pick<ApprovalRequest, "guardrail" | "guardrailVerdict">): string | null {
  if (!isGuardrailHold(approval)) return null;
  const verdict = approval.guardrailVerdict;
  // An approval asked before verdicts rode along names the guardrail only.
  return verdict ? `held by guardrail ${approval.guardrail} (${verdict.check}): ${verdict.reason}` : `held by guardrail ${approval.guardrail}`;
}
