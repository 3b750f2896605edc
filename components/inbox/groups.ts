import { callKey } from "@/lib/inbox/arguments";
import { isBudgetApproval } from "@/lib/contract/budget-approval";
import { isSpendLimitApproval } from "@/lib/contract/spend-limit-approval";
import { isPlanApproval } from "@/lib/contract/plan-approval";
import type { InboxItem } from "@/lib/inbox/schemas";

export interface CallGroup {
  key: string;
  toolName: string;
  items: InboxItem[];
}

/**
 * Identical pending calls (same tool, same arguments) together, groups in order
 * of their oldest request. Requests for tokens and plans stay apart: each is about its own run.
 */
export function groupIdentical(items: InboxItem[]): CallGroup[] {
  const groups = new Map<string, CallGroup>();
  for (const item of items) {
    const key = isBudgetApproval(item) || isPlanApproval(item) || isSpendLimitApproval(item) ? `own\u0000${item.id}` : callKey(item.toolName, item.arguments);
    const group = groups.get(key) ?? { key, toolName: item.toolName, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return [...groups.values()];
}
