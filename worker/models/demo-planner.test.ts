import { describe, expect, it } from "vitest";
import { planFromText, recognise, summarise } from "./demo-planner";
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
});
