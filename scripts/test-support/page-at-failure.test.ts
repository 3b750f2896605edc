import { describe, expect, it } from "vitest";
import { pageAtFailure } from "./page-at-failure";

const context = (yaml: string) => `# Error details\n\n\`\`\`\nError: expect(locator).toBeVisible() failed\n\`\`\`\n\n\`\`\`yaml\n${yaml}\`\`\`\n`;

describe("what the page showed at an e2e failure", () => {
  it("keeps the main landmark without link targets, and stops at its end", () => {
    const yaml = [
      "- complementary:",
      "  - link \"Runs\":",
      "    - /url: /runs",
      "- main:",
      "  - heading \"Runs\" [level=1]",
      "  - navigation \"Saved views\":",
      "    - link \"stuck or burning\":",
      "      - /url: /runs?view=stuck",
      "    - alert: You already have a view named \"x\"",
      "- contentinfo: footer",
      "",
    ].join("\n");
    expect(pageAtFailure(context(yaml))).toEqual([
      "- main:",
      "  - heading \"Runs\" [level=1]",
      "  - navigation \"Saved views\":",
      "    - link \"stuck or burning\":",
      "    - alert: You already have a view named \"x\"",
    ]);
  });

  it("takes the whole snapshot when there is no main landmark, and says how much it left out", () => {
    const yaml = Array.from({ length: 5 }, (_, i) => `- paragraph: line ${i}`).join("\n") + "\n";
    expect(pageAtFailure(context(yaml), 3)).toEqual(["- paragraph: line 0", "- paragraph: line 1", "- paragraph: line 2", "… 2 more lines"]);
  });

  it("answers nothing when the failure has no snapshot (the page was closed)", () => {
    expect(pageAtFailure("# Error details\n\n```\nTarget page, context or browser has been closed\n```\n")).toEqual([]);
  });
});
