import { guardrailHoldSentence } from "@/lib/contract/guardrail-approval";
import type { ApprovalRequest } from "@/lib/contract/types";

/**
 * Which guardrail held a call and why, on the inbox's card and the run page's: the approver reads the rule
 * that stopped it before the arguments. Renders nothing for a call an approval rule gated.
 */
export function GuardrailHoldNote({ item }: { item: Pick<ApprovalRequest, "guardrail" | "guardrailVerdict"> }) {
  const sentence = guardrailHoldSentence(item);
  if (!sentence) return null;
  return (
    <p className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="approval-guardrail" data-guardrail={item.guardrail}>
      <span aria-hidden>🛡</span>
      <span>{sentence}</span>
    </p>
  );
}
