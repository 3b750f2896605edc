import { describe, expect, it } from "vitest";
import { contentWords, describedAgents, planByCards, planCardsOf, planFromText, recognise, summarise } from "./demo-planner";
import { planSchema } from "../../lib/contract/plan";
import type { FunctionTool } from "./types";
import type { ChatMessage } from "../../lib/contract/types";

const fn = (name: string, parameters: Record<string, unknown> = {}): FunctionTool => ({ name, description: name, parameters });
const team = fn("message_agent", { properties: { agent_name: { enum: ["billing", "shipping"] } } });
const triageTools = [fn("lookup_order"), fn("ledger_transfer"), fn("kb__search_kb"), team];
const result = (name: string, content: unknown): Extract<ChatMessage, { role: "tool" }> => ({ role: "tool", tool_call_id: `c-${name}`, name, content: JSON.stringify(content) });

describe("demo planner", () => {
  it("recognises orders, amounts, accounts and topics", () => {
    const r = recognise("Move $250 from savings to operating for order A-1003");
    expect(r).toMatchObject({ orders: ["A-1003"], amount: 250, from: "savings", to: "operating" });
    expect([...r.topics]).toContain("transfer");
  });

  it("plans a refund: look up and search, ask billing, then the approval-gated transfer of the order total", () => {
    const first = planFromText("Refund order A-1003 for Ada", triageTools, []);
    expect(first?.steps.map((s) => s.map((a) => (a.kind === "tool" ? a.name : `${a.kind}:${a.agent}`)))).toEqual([["lookup_order", "kb__search_kb"], ["message:billing"]]);
    const later = planFromText("Refund order A-1003 for Ada", triageTools, [result("lookup_order", { order_id: "A-1003", total: 349.99 })]);
    expect(later?.steps[2]).toEqual([{ kind: "tool", name: "ledger_transfer", rawArguments: JSON.stringify({ from_account: "refunds", to_account: "operating", amount: 349.99 }) }]);
  });

  it("uses only the agent's own tools and plans nothing when none fits", () => {
    expect(planFromText("Where is order A-1002?", [fn("lookup_order"), fn("current_time")], [])?.steps).toEqual([
      [
        { kind: "tool", name: "lookup_order", rawArguments: '{"order_id":"A-1002"}' },
        { kind: "tool", name: "current_time", rawArguments: "{}" },
      ],
    ]);
    expect(planFromText("first question", [], [])).toBeNull();
    expect(planFromText("Where is order A-1002?", [], [])).toBeNull();
  });

  it("computes and moves money for the treasury", () => {
    const treasury = [fn("ledger_balance"), fn("ledger_transfer"), fn("calculator")];
    const plan = planFromText("Move $250 from savings to operating", treasury, []);
    expect(plan?.steps.flat().map((a) => (a.kind === "tool" ? `${a.name} ${a.rawArguments}` : a.kind))).toEqual([
      'ledger_balance {"account":"operating"}',
      'ledger_balance {"account":"savings"}',
      'ledger_transfer {"from_account":"savings","to_account":"operating","amount":250}',
    ]);
    expect(planFromText("How much do 120 runs at 0.35 dollars each cost?", treasury, [])?.steps[0]).toEqual([{ kind: "tool", name: "calculator", rawArguments: '{"expression":"120*0.35"}' }]);
  });

  it("answers in sentences built from the results", () => {
    expect(summarise([result("lookup_order", { order_id: "A-1003", item: "4K monitor", total: 349.99, status: "refund requested" }), result("message_agent", { agent_name: "billing", response: "Yes." })])).toBe(
      "Order A-1003 (4K monitor, $349.99) is refund requested.\nbilling says: Yes.",
    );
  });

  it("looks invoices up by id and describes them", () => {
    expect(recognise("Why was invoice inv-1001 rejected? And INV-1002?").invoices).toEqual(["INV-1001", "INV-1002"]);
    expect(planFromText("Why was invoice INV-1001 rejected?", [fn("lookup_invoice")], [])?.steps).toEqual([[{ kind: "tool", name: "lookup_invoice", rawArguments: '{"invoice_id":"INV-1001"}' }]]);
    expect(planFromText("Why was invoice INV-1001 rejected?", [fn("lookup_order")], [])).toBeNull();
    expect(summarise([result("lookup_invoice", { invoice_id: "INV-1001", status: "rejected", reason: "duplicate of INV-0999", amount_cents: 125000, currency: "EUR" })])).toBe(
      "Invoice INV-1001 (1250.00 EUR) is rejected: duplicate of INV-0999.",
    );
  });

  it("compares texts by their meaningful words, roughly stemmed", () => {
    expect([...contentWords("Why were my invoices charged twice? The refunds are missing!").keys()]).toEqual(["invoic", "charg", "twic", "refund", "miss"]);
    expect([...contentWords("an invoice, a charge").keys()]).toEqual(["invoic", "charg"]);
  });

  it("reads the agents a system tool's description lists", () => {
    expect([...describedAgents("Route the task. Agents:\n- billing: Invoices and refunds\n- general: (no description)")]).toEqual([
      ["billing", "Invoices and refunds"],
      ["general", "(no description)"],
    ]);
  });
});

describe("plans in plain English", () => {
  it("plans one node per card, the last card's node after all the others (the seed's trip plan)", () => {
    const tool = { name: "return", description: "", parameters: planSchema(["flights", "hotels", "itinerary"]) };
    expect(planCardsOf(tool)).toEqual(["flights", "hotels", "itinerary"]);
    expect(planCardsOf({ name: "return", description: "", parameters: { type: "object", properties: { answer: { type: "string" } } } })).toEqual([]);
    expect(planByCards("Paris in June", planCardsOf(tool)).nodes).toEqual([
      { id: "flights", agent: "flights", objective: "flights: Paris in June", dependsOn: [] },
      { id: "hotels", agent: "hotels", objective: "hotels: Paris in June", dependsOn: [] },
      { id: "itinerary", agent: "itinerary", objective: "itinerary: Paris in June", dependsOn: ["flights", "hotels"] },
    ]);
  });
});
