import { describe, expect, it } from "vitest";
import { isProtectedLabel, protectedNames } from "./protection";

describe("protected labels", () => {
  it("protects production by default and nothing else", () => {
    expect(isProtectedLabel([], "g", "production")).toBe(true);
    expect(isProtectedLabel([], "g", "staging")).toBe(false);
    expect(protectedNames([], "g")).toEqual(["production"]);
  });

  it("takes a graph's own word over the workspace's, and the workspace's over the default", () => {
    const rows = [
      { graph: "*", name: "staging", protected: true },
      { graph: "*", name: "production", protected: false },
      { graph: "g", name: "production", protected: true },
      { graph: "g", name: "staging", protected: false },
    ];
    expect(isProtectedLabel(rows, "g", "production")).toBe(true);
    expect(isProtectedLabel(rows, "other", "production")).toBe(false);
    expect(isProtectedLabel(rows, "g", "staging")).toBe(false);
    expect(isProtectedLabel(rows, "other", "staging")).toBe(true);
    expect(protectedNames(rows, "other")).toEqual(["staging"]);
    expect(protectedNames(rows, "g")).toEqual(["production"]);
  });
});
