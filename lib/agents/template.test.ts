import { describe, expect, it } from "vitest";
import { renderPrompt } from "./template";

describe("renderPrompt", () => {
  it("fills nested context paths and reports missing ones", () => {
    const { text, missing } = renderPrompt("Help {{context.customer.name}} ({{ context.customer.tier }}) with {{context.order.id}}.", {
      customer: { name: "Ada", tier: "gold" },
    });
    expect(text).toBe("Help Ada (gold) with .");
    expect(missing).toEqual(["context.order.id"]);
  });

  it("serialises non-string values and leaves other braces alone", () => {
    expect(renderPrompt("n={{context.n}} {{other}}", { n: 3 }).text).toBe("n=3 {{other}}");
  });
});
