import { describe, expect, it } from "vitest";
import { budgetRequestSentence, defaultTokenGrant, grantedTokens, MAX_TOKEN_GRANT, tokenGrantProblems } from "./budget-approval";

describe("budget approvals", () => {
  it("ask by default for half the original budget beyond what the run used", () => {
    expect(defaultTokenGrant(50_000, 51_200, 50_000)).toBe(26_200);
    expect(defaultTokenGrant(1001, 1000, 1000), "rounded up to whole tokens").toBe(501);
    expect(defaultTokenGrant(100_000_000, 200_000_000, 100_000_000), "never more than one grant may give").toBe(MAX_TOKEN_GRANT);
  });

  it("accept a positive whole number of tokens and nothing else", () => {
    expect(tokenGrantProblems({ tokens: 1 })).toEqual([]);
    expect(tokenGrantProblems({ tokens: MAX_TOKEN_GRANT })).toEqual([]);
    expect(tokenGrantProblems({ tokens: 0 })).toEqual(["tokens: must be at least 1"]);
    expect(tokenGrantProblems({ tokens: -5 })).toEqual(["tokens: must be at least 1"]);
    expect(tokenGrantProblems({ tokens: 1.5 })).toEqual(["tokens: must be a whole number"]);
    expect(tokenGrantProblems({ tokens: "9000" })).toEqual(["tokens: must be a whole number"]);
    expect(tokenGrantProblems({ tokens: MAX_TOKEN_GRANT + 1 })).toEqual([`tokens: must be at most ${MAX_TOKEN_GRANT}`]);
    expect(tokenGrantProblems({})).toEqual(["tokens: required"]);
    expect(tokenGrantProblems({ tokens: 5, limit: 9 })).toEqual(["limit: only tokens can be edited on a budget request"]);
  });

  it("grant the approver's amount when edited, else the amount asked for", () => {
    const decidedBy = { id: "u", email: "a@zap.local", role: "approver" };
    expect(grantedTokens({ arguments: { tokens: 500 }, decision: { approved: true, decidedBy, decidedAt: "", editedArguments: { tokens: 9000 } } })).toBe(9000);
    expect(grantedTokens({ arguments: { tokens: 500 }, decision: { approved: true, decidedBy, decidedAt: "" } })).toBe(500);
  });

  it("read as a sentence", () => {
    expect(budgetRequestSentence({ agentName: "help-desk", budget: { used: 51_200, limit: 50_000 } })).toBe("help-desk wants more tokens: used 51,200 of 50,000");
  });
});
