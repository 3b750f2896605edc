// The built-in tools' implementations. Their ids, side-effect flags, argument
// and result schemas come from lib/tools/catalog.ts, lib/tools/arguments.ts and
// lib/tools/output-schemas.ts (unit tests keep the lists in step and run each
// tool against its result schema); the descriptions here are what the model reads.
import { BUILTIN_TOOL_INPUTS } from "../../lib/tools/arguments";
import { BUILTIN_TOOL_OUTPUTS } from "../../lib/tools/output-schemas";
import { EgressRefusedError } from "../../lib/net/egress";
import { evaluateExpression, CalculatorError } from "./calculator";
import { ledgerBalance, ledgerTransfer } from "./demo-bank";
import { ToolUserError, type BuiltinTool } from "./types";

const currentTimeSchema = BUILTIN_TOOL_INPUTS.current_time;
const currentTime: BuiltinTool<typeof currentTimeSchema> = {
  id: "current_time",
  description: "The current date and time, optionally in an IANA time zone such as Europe/Paris.",
  schema: currentTimeSchema,
  outputSchema: BUILTIN_TOOL_OUTPUTS.current_time,
  sideEffect: false,
  async execute(args) {
    const now = new Date();
    const timeZone = args.time_zone ?? "UTC";
    try {
      return { iso: now.toISOString(), time_zone: timeZone, local: now.toLocaleString("en-GB", { timeZone }) };
    } catch {
      throw new ToolUserError(`unknown time zone "${timeZone}"`);
    }
  },
};

const calculatorSchema = BUILTIN_TOOL_INPUTS.calculator;
const calculator: BuiltinTool<typeof calculatorSchema> = {
  id: "calculator",
  description: "Evaluate an arithmetic expression with + - * / % ^ and parentheses.",
  schema: calculatorSchema,
  outputSchema: BUILTIN_TOOL_OUTPUTS.calculator,
  sideEffect: false,
  async execute(args) {
    try {
      return { expression: args.expression, result: evaluateExpression(args.expression) };
    } catch (error) {
      if (error instanceof CalculatorError) throw new ToolUserError(`cannot evaluate "${args.expression}": ${error.message}`);
      throw error;
    }
  },
};

const httpGetSchema = BUILTIN_TOOL_INPUTS.http_get;
const MAX_BODY = 20_000;

/** The start of a reply (up to `maxBytes`); a huge or endless body is cut, not buffered whole. */
async function readAtMost(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxBytes + 1));
}
const httpGet: BuiltinTool<typeof httpGetSchema> = {
  id: "http_get",
  description: "Fetch a web page or JSON document (only hosts on the allow-list).",
  schema: httpGetSchema,
  outputSchema: BUILTIN_TOOL_OUTPUTS.http_get,
  sideEffect: false,
  async execute(args, context) {
    const url = new URL(args.url);
    if (!context.httpAllowlist.includes(url.host) && !context.httpAllowlist.includes(url.hostname)) {
      throw new ToolUserError(`host ${url.host} is not on the allow-list (ZAP_HTTP_ALLOWLIST)`);
    }
    // Being on the list is not enough: the egress guard also wants a public
    // address (unless ZAP_EGRESS_ALLOW_HOSTS lists the host) and pins the
    // connection to it. Redirects are not followed: the target would escape the list.
    let response: Response;
    try {
      response = await context.egressFetch(url, { signal: AbortSignal.any([context.signal, AbortSignal.timeout(10_000)]), redirect: "manual" });
    } catch (error) {
      if (error instanceof EgressRefusedError && !error.transient) throw new ToolUserError(error.publicMessage);
      throw error;
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
      await response.body?.cancel().catch(() => undefined);
      throw new ToolUserError(`${url.host} answered with a redirect (HTTP ${response.status}), which http_get does not follow`);
    }
    const body = await readAtMost(response, MAX_BODY * 4);
    return { status: response.status, content_type: response.headers.get("content-type"), body: body.slice(0, MAX_BODY), truncated: body.length > MAX_BODY };
  },
};

const ORDERS: Record<string, { status: string; item: string; total: number; placed: string }> = {
  "A-1001": { status: "delivered", item: "Noise-cancelling headphones", total: 199.0, placed: "2026-10-02" },
  "A-1002": { status: "in transit", item: "Mechanical keyboard", total: 129.5, placed: "2026-11-15" },
  "A-1003": { status: "refund requested", item: "4K monitor", total: 349.99, placed: "2026-09-21" },
};
const lookupOrderSchema = BUILTIN_TOOL_INPUTS.lookup_order;
const lookupOrder: BuiltinTool<typeof lookupOrderSchema> = {
  id: "lookup_order",
  description: "Look up a demo customer order by id (e.g. A-1001).",
  schema: lookupOrderSchema,
  outputSchema: BUILTIN_TOOL_OUTPUTS.lookup_order,
  sideEffect: false,
  async execute(args) {
    const order = ORDERS[args.order_id];
    if (!order) throw new ToolUserError(`no order ${args.order_id}`);
    return { order_id: args.order_id, ...order };
  },
};

/** The demo ERP's invoices: one of each status, so a triage agent meets every branch. */
const INVOICES: Record<string, { status: "approved" | "rejected" | "pending"; reason: string | null; amount_cents: number; currency: string }> = {
  "INV-1001": { status: "rejected", reason: "missing purchase order", amount_cents: 125_000, currency: "USD" },
  "INV-1002": { status: "approved", reason: null, amount_cents: 48_950, currency: "USD" },
  "INV-1003": { status: "pending", reason: "awaiting a second approver", amount_cents: 129_900, currency: "EUR" },
};
const lookupInvoiceSchema = BUILTIN_TOOL_INPUTS.lookup_invoice;
const lookupInvoice: BuiltinTool<typeof lookupInvoiceSchema> = {
  id: "lookup_invoice",
  description: "Look up a demo invoice in the ERP by id (e.g. INV-1001): its status (approved, rejected or pending), the reason, and the amount in cents.",
  schema: lookupInvoiceSchema,
  outputSchema: BUILTIN_TOOL_OUTPUTS.lookup_invoice,
  sideEffect: false,
  async execute(args) {
    const invoice = INVOICES[args.invoice_id];
    if (!invoice) throw new ToolUserError(`no invoice ${args.invoice_id} in the ERP`);
    return { invoice_id: args.invoice_id, ...invoice };
  },
};

const NOTES = [
  "Temporal workflows are durable: their state survives worker crashes by replaying event history.",
  "Continue-as-new starts a fresh run of a workflow with carried state, keeping histories short.",
  "Activities should be idempotent because they may be retried after a timeout or a crash.",
  "Signals, queries and updates are the three ways to interact with a running workflow.",
  "Parallel tool calls reduce latency when an LLM requests several independent tools at once.",
  "Human-in-the-loop approval pauses a run until someone with the right role decides.",
];
const searchNotesSchema = BUILTIN_TOOL_INPUTS.search_notes;
const searchNotes: BuiltinTool<typeof searchNotesSchema> = {
  id: "search_notes",
  description: "Search the demo research notes; returns matching snippets.",
  schema: searchNotesSchema,
  outputSchema: BUILTIN_TOOL_OUTPUTS.search_notes,
  sideEffect: false,
  async execute(args) {
    const words = args.query.toLowerCase().split(/\W+/).filter(Boolean);
    const scored = NOTES.map((text) => ({ text, score: words.filter((w) => text.toLowerCase().includes(w)).length })).filter((n) => n.score > 0);
    scored.sort((a, b) => b.score - a.score);
    return { query: args.query, results: scored.slice(0, args.limit ?? 3).map((n) => n.text) };
  },
};

export const BUILTIN_IMPLEMENTATIONS: readonly BuiltinTool[] = [currentTime, calculator, httpGet, lookupOrder, lookupInvoice, searchNotes, ledgerBalance, ledgerTransfer] as BuiltinTool[];

export function findBuiltin(id: string): BuiltinTool | undefined {
  return BUILTIN_IMPLEMENTATIONS.find((t) => t.id === id);
}
