import { describe, expect, it } from "vitest";
import { matchesGlob } from "./glob";

describe("matchesGlob", () => {
  it.each([
    ["ledger_*", "ledger_write", true],
    ["ledger_*", "ledger_", true],
    ["ledger_*", "my_ledger_write", false],
    ["crm__delete_?", "crm__delete_x", true],
    ["crm__delete_?", "crm__delete_", false],
    ["crm__delete_?", "crm__delete_xy", false],
    ["*", "", true],
    ["", "", true],
    ["", "a", false],
    ["*_write", "ledger_write", true],
    ["*_write", "ledger_writer", false],
    ["a*b*c", "axxbyyc", true],
    ["a*b*c", "axxbyy", false],
    ["http.get", "http.get", true],
    ["http.get", "httpxget", false],
    ["a+b", "a+b", true],
    ["a+b", "aab", false],
    ["(x)", "(x)", true],
    ["*a*a*b", "aaab", true],
  ])("%s against %s is %s", (pattern, name, expected) => {
    expect(matchesGlob(pattern, name)).toBe(expected);
  });
});
