import { describe, expect, it } from "vitest";
import { calls, item, observed } from "./test-fixtures";
import { scoreTrajectory } from "./trajectory";

const lookup = { tool: "lookup_account", arguments: { accountId: "42" } };
const balance = { tool: "get_balance", arguments: { accountId: "42", currency: "EUR" } };
const transfer = { tool: "transfer", arguments: { from: "42", to: "7", amount: 100 } };

const strictExact = { order: "strict", arguments: "exact" } as const;
const unorderedExact = { order: "unordered", arguments: "exact" } as const;

describe("trajectory scorer", () => {
  it("passes when the calls are the expected ones, in order, with equal arguments (key order ignored)", () => {
    const run = observed({ toolCalls: calls(["lookup_account", { accountId: "42" }], ["get_balance", { currency: "EUR", accountId: "42" }]) });
    const score = scoreTrajectory(run, item({ trajectory: [lookup, balance] }), strictExact);
    expect(score).toMatchObject({ scorer: "trajectory:strict/exact", value: 1, pass: true });
  });

  it("strict: a reordered pair loses one match and is named as a reordering; unordered passes it", () => {
    const run = observed({ toolCalls: calls(["get_balance", balance.arguments], ["lookup_account", lookup.arguments]) });
    const strict = scoreTrajectory(run, item({ trajectory: [lookup, balance] }), strictExact);
    expect(strict.pass).toBe(false);
    expect(strict.value).toBe(0.5);
    expect(strict.detail).toContain("same calls in another order");
    expect(scoreTrajectory(run, item({ trajectory: [lookup, balance] }), unorderedExact)).toMatchObject({ value: 1, pass: true });
  });

  it("a missing call fails and is named; value is the share matched", () => {
    const run = observed({ toolCalls: calls(["lookup_account", lookup.arguments]) });
    const score = scoreTrajectory(run, item({ trajectory: [lookup, balance] }), strictExact);
    expect(score.pass).toBe(false);
    expect(score.value).toBe(0.5);
    expect(score.detail).toMatch(/1 of 2 expected call\(s\) matched in order; missing: get_balance/);
  });

  it("an extra call fails in both orders and lowers the value (extra calls are not free)", () => {
    const run = observed({ toolCalls: calls(["lookup_account", lookup.arguments], ["get_balance", balance.arguments], ["get_balance", balance.arguments]) });
    for (const config of [strictExact, unorderedExact]) {
      const score = scoreTrajectory(run, item({ trajectory: [lookup, balance] }), config);
      expect(score.pass, config.order).toBe(false);
      expect(score.value, config.order).toBeCloseTo(2 / 3);
      expect(score.detail, config.order).toContain("extra: get_balance");
    }
  });

  it("arguments: exact refuses an extra argument, subset accepts it, ignore looks at tool names only", () => {
    const run = observed({ toolCalls: calls(["get_balance", { accountId: "42", currency: "EUR", includePending: true }]) });
    const expected = item({ trajectory: [balance] });
    expect(scoreTrajectory(run, expected, strictExact).pass).toBe(false);
    expect(scoreTrajectory(run, expected, { order: "strict", arguments: "subset" }).pass).toBe(true);
    const otherAccount = observed({ toolCalls: calls(["get_balance", { accountId: "99" }]) });
    expect(scoreTrajectory(otherAccount, expected, { order: "strict", arguments: "subset" }).pass).toBe(false);
    expect(scoreTrajectory(otherAccount, expected, { order: "strict", arguments: "ignore" }).pass).toBe(true);
  });

  it("subset matching nests into objects", () => {
    const run = observed({ toolCalls: calls(["search", { query: { text: "refund", limit: 5 }, page: 1 }]) });
    const expected = item({ trajectory: [{ tool: "search", arguments: { query: { text: "refund" } } }] });
    expect(scoreTrajectory(run, expected, { order: "strict", arguments: "subset" }).pass).toBe(true);
  });

  it("unordered with subset arguments finds the best matching, not the first greedy fit", () => {
    // A greedy pass would give the observed {accountId: 42, currency} call to the looser expectation first.
    const run = observed({ toolCalls: calls(["get_balance", { accountId: "42", currency: "EUR" }], ["get_balance", { accountId: "7" }]) });
    const expected = item({ trajectory: [{ tool: "get_balance", arguments: {} }, { tool: "get_balance", arguments: { currency: "EUR" } }] });
    expect(scoreTrajectory(run, expected, { order: "unordered", arguments: "subset" })).toMatchObject({ value: 1, pass: true });
  });

  it("a negative expectation that happens fails the score with the approver's reason", () => {
    const run = observed({ toolCalls: calls(["lookup_account", lookup.arguments], ["transfer", transfer.arguments]) });
    const score = scoreTrajectory(run, item({ trajectory: [lookup], negative: [{ ...transfer, reason: "amount over the customer's limit" }] }), strictExact);
    expect(score).toMatchObject({ value: 0, pass: false });
    expect(score.detail).toContain("must not happen: amount over the customer's limit");
  });

  it("a negative expectation with other arguments is not hit (exact), and passes alone when avoided", () => {
    const run = observed({ toolCalls: calls(["transfer", { ...transfer.arguments, amount: 20 }]) });
    const score = scoreTrajectory(run, item({ negative: [{ ...transfer, reason: "too much" }] }), strictExact);
    expect(score).toMatchObject({ value: 1, pass: true });
    expect(score.detail).toContain("none of the 1 forbidden call(s) happened");
  });

  it("an empty expected trajectory means no calls at all", () => {
    expect(scoreTrajectory(observed(), item({ trajectory: [] }), strictExact)).toMatchObject({ value: 1, pass: true });
    expect(scoreTrajectory(observed({ toolCalls: calls(["transfer", {}]) }), item({ trajectory: [] }), strictExact)).toMatchObject({ value: 0, pass: false });
  });

  it("an item without trajectory expectations is undecided, not failed", () => {
    expect(scoreTrajectory(observed({ toolCalls: calls(["transfer", {}]) }), item({ output: "x" }), strictExact)).toMatchObject({ pass: null });
  });

  it("strict LCS counts the longest in-order run when a call is inserted in the middle", () => {
    const run = observed({ toolCalls: calls(["lookup_account", lookup.arguments], ["transfer", transfer.arguments], ["get_balance", balance.arguments]) });
    const score = scoreTrajectory(run, item({ trajectory: [lookup, balance] }), strictExact);
    expect(score.value).toBeCloseTo(2 / 3);
    expect(score.detail).toMatch(/2 of 2 expected call\(s\) matched in order; extra: transfer/);
  });
});
