// Plain-English planning for the demo model: when a message holds no script
// directives, recognise order ids, amounts, account names and topics, and
// plan tool calls from the agent's own tool list, conversations with its
// sub-agents and (approval-gated) transfers. Deterministic and offline: the
// same message and the same tool results always give the same plan.
import type { ChatMessage } from "../../lib/contract/types";
import type { DemoAction, DemoScript } from "./demo-script";
import type { FunctionTool } from "./types";

const ACCOUNTS = ["operating", "refunds", "savings"] as const;
type Topic = "refund" | "shipping" | "balance" | "transfer" | "policy" | "research";

export interface Recognised {
  orders: string[];
  amount: number | null;
  accounts: string[];
  from: string | null;
  to: string | null;
  topics: Set<Topic>;
  expression: string | null;
  subject: string;
}

/** What a message talks about. */
export function recognise(text: string): Recognised {
  const lower = text.toLowerCase();
  const orders = [...new Set(text.match(/\b[A-Z]-\d{4}\b/g) ?? [])];
  const money = /\$\s?(\d+(?:\.\d{1,2})?)|(\d+(?:\.\d{1,2})?)\s?(?:dollars|usd)\b/i.exec(text);
  const amount = money ? Number(money[1] ?? money[2]) : null;
  const accounts = ACCOUNTS.filter((a) => new RegExp(`\\b${a}\\b`).test(lower));
  const from = /\bfrom\s+(?:the\s+)?(operating|refunds|savings)\b/.exec(lower)?.[1] ?? null;
  const to = /\bto\s+(?:the\s+)?(operating|refunds|savings)\b/.exec(lower)?.[1] ?? null;
  const topics = new Set<Topic>();
  if (/\brefund|\breturn|\bmoney back/.test(lower)) topics.add("refund");
  if (/\bship|\bdeliver|\barriv|\bparcel|\bpackage|\bwhere is\b|\btracking/.test(lower)) topics.add("shipping");
  if (/\bbalance|\bhow much (?:is|do we have) in/.test(lower)) topics.add("balance");
  if (/\b(?:move|transfer|send|pay)\b/.test(lower) && amount !== null && from && to) topics.add("transfer");
  if (/\bpolicy|\bpolicies|\brules?\b/.test(lower)) topics.add("policy");
  if (/\bresearch|\bnotes?\b|\bsummari[sz]e|\bwhat do (?:we|our notes) (?:know|say)/.test(lower)) topics.add("research");
  const numbers = /\b(\d+(?:\.\d+)?)\s*(?:[a-z ]{0,20}?)\s*(?:at|×|x|\*|times)\s*\$?(\d+(?:\.\d+)?)/i.exec(text);
  const arithmetic = /(\d+(?:\.\d+)?\s*[-+*/]\s*\d+(?:\.\d+)?(?:\s*[-+*/]\s*\d+(?:\.\d+)?)*)/.exec(text);
  const expression = arithmetic?.[1]?.replace(/\s+/g, "") ?? (numbers && /how much|cost|total/i.test(text) ? `${numbers[1]}*${numbers[2]}` : null);
  const about = /\b(?:research|about|on)\s+([a-z][a-z0-9 -]{2,60}?)(?:\s+and\b|[.?!,]|$)/i.exec(text)?.[1];
  const subject = (about ?? (topics.has("refund") ? "refund policy" : topics.has("shipping") ? "shipping" : text.split(/\s+/).slice(0, 6).join(" "))).trim();
  return { orders, amount, accounts, from, to, topics, expression, subject };
}

const parseJson = (text: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

const tool = (name: string, args: Record<string, unknown>): DemoAction => ({ kind: "tool", name, rawArguments: JSON.stringify(args) });

function subAgentsOf(tools: FunctionTool[]): string[] {
  const enumeration = (tools.find((t) => t.name === "message_agent")?.parameters as { properties?: { agent_name?: { enum?: unknown } } } | undefined)?.properties?.agent_name?.enum;
  return Array.isArray(enumeration) ? enumeration.filter((n): n is string => typeof n === "string") : [];
}

/** The order total a lookup returned, for refunds that name no amount. */
function orderTotal(results: Extract<ChatMessage, { role: "tool" }>[]): number | null {
  for (const r of results) {
    if (r.name !== "lookup_order") continue;
    const total = parseJson(r.content)?.total;
    if (typeof total === "number") return total;
  }
  return null;
}

/** A plan for a plain-English message, or null when none of the agent's tools fits it (the model then answers in words). */
export function planFromText(text: string, tools: FunctionTool[], results: Extract<ChatMessage, { role: "tool" }>[]): DemoScript | null {
  const has = (name: string) => tools.some((t) => t.name === name);
  const kb = tools.find((t) => t.name.endsWith("search_kb"))?.name;
  const r = recognise(text);
  const gather: DemoAction[] = [];
  if (has("lookup_order")) for (const id of r.orders) gather.push(tool("lookup_order", { order_id: id }));
  if (kb && (r.topics.has("refund") || r.topics.has("policy") || r.topics.has("shipping"))) gather.push(tool(kb, { query: r.subject }));
  if (has("search_notes") && (r.topics.has("research") || r.topics.has("policy"))) gather.push(tool("search_notes", { query: r.subject }));
  if (has("ledger_balance") && (r.topics.has("balance") || r.topics.has("refund") || r.topics.has("transfer"))) {
    const accounts = r.accounts.length ? r.accounts : r.topics.has("refund") ? ["refunds"] : [];
    for (const account of accounts) gather.push(tool("ledger_balance", { account }));
  }
  if (has("calculator") && r.expression) gather.push(tool("calculator", { expression: r.expression }));
  if (has("current_time") && r.topics.has("shipping")) gather.push(tool("current_time", {}));

  const consult: DemoAction[] = [];
  const team = subAgentsOf(tools);
  const order = r.orders[0] ? `order ${r.orders[0]}` : "this request";
  if (team.includes("billing") && r.topics.has("refund")) consult.push({ kind: "message", agent: "billing", text: `Is ${order} refundable, and from which account? The customer wrote: ${text}` });
  if (team.includes("shipping") && r.topics.has("shipping")) consult.push({ kind: "message", agent: "shipping", text: `Where is ${order}? The customer wrote: ${text}` });

  const act: DemoAction[] = [];
  if (has("ledger_transfer")) {
    if (r.topics.has("transfer") && r.from && r.to && r.amount !== null) act.push(tool("ledger_transfer", { from_account: r.from, to_account: r.to, amount: r.amount }));
    else if (r.topics.has("refund") && /\brefund\b/i.test(text) && r.orders.length) {
      const amount = r.amount ?? orderTotal(results);
      if (amount !== null) act.push(tool("ledger_transfer", { from_account: "refunds", to_account: "operating", amount }));
    }
  }
  const steps = [gather, consult, act].filter((s) => s.length > 0);
  if (steps.length === 0) return null;
  return { steps, answer: null, thinkMs: 0, outputTokens: null, failModel: false, flakyAttempts: 0, hasDirectives: true };
}

function describeResult(result: Extract<ChatMessage, { role: "tool" }>): string {
  const data = parseJson(result.content);
  if (result.name === "lookup_order" && data && typeof data.order_id === "string") return `Order ${data.order_id} (${String(data.item)}, $${String(data.total)}) is ${String(data.status)}.`;
  if (result.name === "message_agent" && data && typeof data.response === "string") return `${String(data.agent_name)} says: ${data.response}`;
  if (result.name === "ledger_transfer" && data?.status === "completed") return `Transferred $${String(data.amount)} from ${String(data.from_account)} to ${String(data.to_account)}.`;
  if (result.name === "ledger_balance" && data && "balance" in data) return `The ${String(data.account ?? "account")} account holds $${String(data.balance)}.`;
  if (result.name === "calculator" && data && "result" in data) return `The result is ${String(data.result)}.`;
  const text = result.content.length > 200 ? `${result.content.slice(0, 200)}…` : result.content;
  return `${result.name}: ${text}`;
}

/** The final answer of a plain-English plan: one sentence per tool result. */
export function summarise(results: Extract<ChatMessage, { role: "tool" }>[]): string {
  return results.length ? results.map(describeResult).join("\n") : "Done.";
}
