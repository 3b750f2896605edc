import { describe, expect, it } from "vitest";
import { plural } from "./plural";

describe("plural", () => {
  it("keeps the singular for exactly one", () => {
    expect(plural(1, "agent")).toBe("1 agent");
    expect(plural(1, "sub-agent")).toBe("1 sub-agent");
  });
  it("adds an s otherwise, zero included", () => {
    expect(plural(0, "error")).toBe("0 errors");
    expect(plural(2, "error")).toBe("2 errors");
  });
  it("takes an irregular plural and groups thousands", () => {
    expect(plural(1200, "policy", "policies")).toBe("1,200 policies");
  });
});
