import { describe, expect, it } from "vitest";
import { missingPlaceholders, placeholdersOf } from "./placeholders";

describe("context placeholders", () => {
  const prompts = ["Agent for {{context.company}}; customer {{ context.customer.name }}.", "No placeholders", "Again {{context.company}}"];

  it("lists each placeholder once", () => {
    expect(placeholdersOf(prompts)).toEqual(["context.company", "context.customer.name"]);
  });

  it("names the ones a context leaves empty", () => {
    expect(missingPlaceholders(prompts, { company: "Acme" })).toEqual(["context.customer.name"]);
    expect(missingPlaceholders(prompts, { company: "Acme", customer: { name: "Ada" } })).toEqual([]);
  });
});
