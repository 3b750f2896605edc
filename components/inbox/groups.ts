import { callKey } from "@/lib/inbox/arguments";
import type { InboxItem } from "@/lib/inbox/schemas";

export interface CallGroup {
  key: string;
  toolName: string;
  items: InboxItem[];
}

/** Identical pending calls (same tool, same arguments) together, groups in order of their oldest request. */
export function groupIdentical(items: InboxItem[]): CallGroup[] {
  const groups = new Map<string, CallGroup>();
  for (const item of items) {
    const key = callKey(item.toolName, item.arguments);
    const group = groups.get(key) ?? { key, toolName: item.toolName, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return [...groups.values()];
}
