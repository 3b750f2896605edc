import { describe, expect, it } from "vitest";
import { withMinimalSourceMap } from "./minimal-source-map";

const inline = (map: object) => `//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString("base64")}`;

describe("withMinimalSourceMap", () => {
  it("keeps the code and the map's file, and empties the mappings", () => {
    const code = `var a = 1;\n${inline({ version: 3, file: "/x/workflow-bundle-1.js", sources: ["a.ts"], names: [], mappings: "AAAA;AACA" })}`;
    const out = withMinimalSourceMap(code);
    expect(out.startsWith("var a = 1;\n//# sourceMappingURL=data:application/json;base64,")).toBe(true);
    const map = JSON.parse(Buffer.from(out.split("base64,")[1]!, "base64").toString("utf8")) as Record<string, unknown>;
    expect(map).toEqual({ version: 3, file: "/x/workflow-bundle-1.js", sources: [], names: [], mappings: "" });
    expect(out.length).toBeLessThan(code.length);
  });

  it("leaves a bundle without an inline map as it is", () => {
    expect(withMinimalSourceMap("var a = 1;")).toBe("var a = 1;");
  });
});
