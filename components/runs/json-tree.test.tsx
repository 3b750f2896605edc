import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { JsonTree } from "./json-tree";
import { FailureDetails } from "./failure-details";

describe("JsonTree", () => {
  it("renders the typed answer as a tree: two levels open, deeper containers folded with their size, text escaped", () => {
    const html = renderToStaticMarkup(createElement(JsonTree, { value: { vendor: "<b>Acme</b>", lines: [{ sku: "A", qty: 2 }] }, label: "Typed answer" }));
    expect(html).toContain('data-testid="typed-output"');
    expect(html).toContain('role="tree"');
    expect(html).toContain("&quot;&lt;b&gt;Acme&lt;/b&gt;&quot;");
    expect(html).toContain("{2 keys}");
    expect(html).toContain("[1 item]");
    // lines[0] is the third level: folded, so its keys are not rendered.
    expect(html).toContain("Unfold 0");
    expect(html).not.toContain("sku");
    expect(html).toContain("Show raw JSON");
  });

  it("renders a leaf answer (a typed answer may be a bare value)", () => {
    const html = renderToStaticMarkup(createElement(JsonTree, { value: null, label: "Typed answer" }));
    expect(html).toContain(">null<");
  });
});

describe("FailureDetails", () => {
  it("lists schema errors, the raw answer and the agents tried", () => {
    const html = renderToStaticMarkup(createElement(FailureDetails, { details: { errors: ["/total: must be number"], rawOutput: '{"total":"x"}', attempts: [{ agentName: "billing", reason: "tool_error" }] } }));
    expect(html).toContain("/total: must be number");
    expect(html).toContain("last answer (raw)");
    expect(html).toContain("billing");
    expect(html).toContain("tool_error");
  });

  it("renders nothing without details", () => {
    expect(renderToStaticMarkup(createElement(FailureDetails, { details: undefined }))).toBe("");
    expect(renderToStaticMarkup(createElement(FailureDetails, { details: { errors: [] } }))).toBe("");
  });
});
