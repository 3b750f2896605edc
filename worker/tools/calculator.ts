// A small arithmetic evaluator for the calculator tool. Hand-written on
// purpose: evaluating model-supplied text with eval/Function is unsafe, and the
// maintained expression libraries are far larger than + - * / % ^ ( ).

export class CalculatorError extends Error {}

export function evaluateExpression(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[-+*/%^()]|\S/g) ?? [];
  let position = 0;
  const peek = () => tokens[position];
  const next = () => tokens[position++];

  function primary(): number {
    const token = next();
    if (token === undefined) throw new CalculatorError("the expression ends too early");
    if (token === "(") {
      const value = sum();
      if (next() !== ")") throw new CalculatorError("a closing parenthesis is missing");
      return value;
    }
    if (token === "-") return -unary();
    if (token === "+") return unary();
    if (/^\d/.test(token)) return Number(token);
    throw new CalculatorError(`unexpected "${token}"`);
  }
  function unary(): number {
    return primary();
  }
  function power(): number {
    const base = unary();
    if (peek() === "^") {
      next();
      return base ** power(); // right-associative
    }
    return base;
  }
  function product(): number {
    let value = power();
    while (peek() === "*" || peek() === "/" || peek() === "%") {
      const op = next();
      const right = power();
      if ((op === "/" || op === "%") && right === 0) throw new CalculatorError("division by zero");
      value = op === "*" ? value * right : op === "/" ? value / right : value % right;
    }
    return value;
  }
  function sum(): number {
    let value = product();
    while (peek() === "+" || peek() === "-") {
      const op = next();
      const right = product();
      value = op === "+" ? value + right : value - right;
    }
    return value;
  }

  if (expression.length > 500) throw new CalculatorError("the expression is longer than 500 characters");
  const result = sum();
  if (position < tokens.length) throw new CalculatorError(`unexpected "${tokens[position]}"`);
  if (!Number.isFinite(result)) throw new CalculatorError("the result is not a finite number");
  return result;
}
