import { describe, expect, it } from "vitest";
import { graphVersionLabel, versionCell } from "./version-label";

describe("naming a run's graph version", () => {
  it("names a saved version as it is, and an unsaved variant after the version it derives from, never as it", () => {
    expect(graphVersionLabel({ graphName: "treasury", version: 3 })).toBe("treasury v3");
    expect(graphVersionLabel({ graphName: "treasury", version: 3, variantOf: null })).toBe("treasury v3");
    expect(graphVersionLabel({ graphName: "treasury", version: null, variantOf: 3 })).toBe("unsaved variant of treasury v3");
    // Even a row that (wrongly) claims a version and a variant is named as the variant.
    expect(graphVersionLabel({ graphName: "treasury", version: 3, variantOf: 3 })).toBe("unsaved variant of treasury v3");
    expect(graphVersionLabel({ graphName: "treasury", version: null })).toBe("treasury");
    expect(graphVersionLabel({ graphName: null, version: null })).toBe("inline graph");
    expect(graphVersionLabel(undefined)).toBe("inline graph");
  });

  it("fills the runs list's version column: the number for a saved version, the variant wording for an unsaved one", () => {
    expect(versionCell({ graphName: "treasury", version: 3, variantOf: null })).toBe("v3");
    expect(versionCell({ graphName: "treasury", version: null, variantOf: 2 })).toBe("unsaved variant of treasury v2");
    expect(versionCell({ graphName: null, version: null })).toBe("—");
  });
});
