import { describe, expect, it } from "vitest";
import { CalculatorError, evaluateExpression } from "./calculator";

describe("evaluateExpression", () => {
  it.each([
    ["6*7", 42],
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["2 ^ 3 ^ 2", 512],
    ["-4 + 10 % 3", -3],
    ["7 / 2", 3.5],
    ["-(2+3)*2", -10],
  ])("%s = %d", (expression, expected) => {
    expect(evaluateExpression(expression)).toBe(expected);
  });

  it.each(["1 +", "2 * (3", "1 / 0", "process.exit()", "2 3"])("rejects %j", (expression) => {
    expect(() => evaluateExpression(expression)).toThrow(CalculatorError);
  });
});
