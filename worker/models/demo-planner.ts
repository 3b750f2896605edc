// Plain-English planning for the demo model: when a message holds no script
// directives, recognise order and invoice ids, amounts, account names and
// topics, and plan tool calls from the agent's own tool list, conversations
// with its sub-agents and (approval-gated) transfers; route and hand off by
// the agents' descriptions. Deterministic and offline: the same message and
// the same tool results always give the same plan.
import { FAIL_TOOL, HANDOFF_TOOL, MESSAGE_AGENT_TOOL, RETURN_TOOL, type RoutingDecision } from "../../lib/contract/system-tools";
import type { ChatMessage } from "../../lib/contract/types";
import { emptyScript, type DemoAction, type DemoScript } from "./demo-script";
import type { FunctionTool } from "./types";

const ACCOUNTS = ["operating", "refunds", "savings"] as const;
type Topic = "refund" | "shipping" | "balance" | "transfer" | "policy" | "research";

export interface Recognised {
  orders: string[];
  invoices: string[];
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
  const invoices = [...new Set((text.match(/\binv-\d{4}\b/gi) ?? []).map((id) => id.toUpperCase()))];
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
  return { orders, invoices, amount, accounts, from, to, topics, expression, subject };
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
  if (has("lookup_invoice")) for (const id of r.invoices) gather.push(tool("lookup_invoice", { invoice_id: id }));
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
  return { ...emptyScript(), steps, hasDirectives: true, prose: text };
}

function describeResult(result: Extract<ChatMessage, { role: "tool" }>): string {
  const data = parseJson(result.content);
  if (result.name === "lookup_order" && data && typeof data.order_id === "string") return `Order ${data.order_id} (${String(data.item)}, $${String(data.total)}) is ${String(data.status)}.`;
  if (result.name === "lookup_invoice" && data && typeof data.invoice_id === "string") {
    const amount = typeof data.amount_cents === "number" ? ` (${(data.amount_cents / 100).toFixed(2)} ${typeof data.currency === "string" ? data.currency : "USD"})` : "";
    return `Invoice ${data.invoice_id}${amount} is ${String(data.status)}${typeof data.reason === "string" && data.reason ? `: ${data.reason}` : ""}.`;
  }
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

// Routing and handoffs in plain English: the agent whose description shares
// the most words with the task takes it, as a model reading the descriptions
// would pick it. Words are lower-cased and roughly stemmed; short and common
// words do not count.

const STOP_WORDS = new Set(
  ("the and for with that this these those what why how was were are has have had you your our ours can could will would should not but from into about " +
    "any all anything else other others its they them their there here when where which who whom whose been being did does doing done just only also than " +
    "then too very more most some such own same each few both out off over under again once please hello thanks thank need want like get got help " +
    "handle handles answer answers agent agents question questions task demo customer customers user users")
    .split(" "),
);

function stem(word: string): string {
  if (word.endsWith("ss")) return word;
  for (const suffix of ["ing", "ed", "es", "s", "e"]) if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  return word;
}

/** The words of `text` that carry meaning: stem → the word as first written. */
export function contentWords(text: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 3 || STOP_WORDS.has(word) || /^\d+$/.test(word)) continue;
    const stemmed = stem(word);
    if (!STOP_WORDS.has(stemmed) && !words.has(stemmed)) words.set(stemmed, word);
  }
  return words;
}

/** The words of `task` that `text` shares, as the task wrote them. */
function sharedWords(task: Map<string, string>, text: string): string[] {
  const other = contentWords(text);
  return [...task].filter(([stemmed]) => other.has(stemmed)).map(([, word]) => word);
}

/** The agents a system tool's description lists, one per line as "- name: description". */
export function describedAgents(description: string): Map<string, string> {
  const agents = new Map<string, string>();
  for (const line of description.split("\n")) {
    const match = /^\s*-\s*([A-Za-z0-9_-]+):\s*(.*)$/.exec(line);
    if (match?.[1]) agents.set(match[1], match[2] ?? "");
  }
  return agents;
}

function enumOf(tool: FunctionTool, property: string): string[] {
  const values = (tool.parameters as { properties?: Record<string, { enum?: unknown }> }).properties?.[property]?.enum;
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === "string") : [];
}

/** The candidate whose name and description share the most words with the task (the first on a tie), with those words. */
function bestMatch(task: string, candidates: readonly string[], descriptions: Map<string, string>): { name: string; shared: string[] } | null {
  const words = contentWords(task);
  let best: { name: string; shared: string[] } | null = null;
  for (const name of candidates) {
    const shared = sharedWords(words, `${name.replace(/[-_]/g, " ")} ${descriptions.get(name) ?? ""}`);
    if (!best || shared.length > best.shared.length) best = { name, shared };
  }
  return best;
}

/** Whether a `return` tool's parameters are a router's decision (a target among children, a confidence). */
export function isRoutingTool(tool: FunctionTool): boolean {
  const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties;
  return enumOf(tool, "target").length > 0 && properties?.confidence !== undefined;
}

/**
 * A router's decision in plain English: the child (among `remaining`, after a
 * reroute) whose description shares the most words with the task, at 0.9; with
 * no word in common, the first child at 0.3 and no fallback, so the router's
 * default agent takes it.
 */
export function routeByDescription(task: string, returnTool: FunctionTool, remaining: readonly string[] | null): RoutingDecision {
  const children = enumOf(returnTool, "target");
  const stillOpen = remaining?.filter((name) => children.includes(name)) ?? [];
  const candidates = stillOpen.length > 0 ? stillOpen : children;
  const best = bestMatch(task, candidates, describedAgents(returnTool.description));
  if (best && best.shared.length > 0) return { target: best.name, confidence: 0.9, reason: `the task mentions ${best.shared.join(", ")}` };
  return { target: candidates[0] ?? "", confidence: 0.3, reason: "no agent's description matches the task" };
}

/**
 * A handoff in plain English: the handoff target whose description shares
 * more words with the task than any of the agent's own tools does, or null.
 * `from` (who handed the task here) is never handed it back.
 */
export function handoffByDescription(task: string, tools: FunctionTool[], from: string | null): { agent: string; reason: string } | null {
  const handoffTool = tools.find((t) => t.name === HANDOFF_TOOL);
  if (!handoffTool) return null;
  const targets = enumOf(handoffTool, "agent").filter((name) => name !== from);
  const best = bestMatch(task, targets, describedAgents(handoffTool.description));
  if (!best || best.shared.length === 0) return null;
  const words = contentWords(task);
  const ownTools = tools.filter((t) => ![HANDOFF_TOOL, RETURN_TOOL, FAIL_TOOL, MESSAGE_AGENT_TOOL].includes(t.name));
  const ownBest = Math.max(0, ...ownTools.map((t) => sharedWords(words, `${t.name.replace(/[-_]/g, " ")} ${t.description}`).length));
  return best.shared.length > ownBest ? { agent: best.name, reason: `${best.name} handles ${best.shared.join(", ")}` } : null;
}

/** The agents a planner's `return` tool lets a plan use, or [] when the tool is not a plan. */
export function planCardsOf(tool: FunctionTool): string[] {
  const nodes = (tool.parameters as { properties?: { nodes?: { items?: { properties?: { agent?: { enum?: unknown }; dependsOn?: unknown } } } } }).properties?.nodes?.items?.properties;
  const cards = nodes?.dependsOn !== undefined ? nodes.agent?.enum : undefined;
  return Array.isArray(cards) ? cards.filter((c): c is string => typeof c === "string") : [];
}

/**
 * A planner's plan in plain English: one node per agent, the last agent's node
 * depending on all the others (which run in parallel) — the seed's trip plan
 * (two researchers, then the itinerary) for a graph of that shape.
 */
export function planByCards(task: string, cards: readonly string[]): { nodes: { id: string; agent: string; objective: string; dependsOn: string[] }[] } {
  const first = cards.slice(0, -1);
  const last = cards.at(-1);
  const objective = (agent: string) => `${agent.replace(/[_-]+/g, " ")}: ${task}`.slice(0, 500);
  const parallel = first.map((agent) => ({ id: agent, agent, objective: objective(agent), dependsOn: [] }));
  return { nodes: last ? [...parallel, { id: last, agent: last, objective: objective(last), dependsOn: first }] : parallel };
}
