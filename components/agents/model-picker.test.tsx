import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ModelPicker } from "./model-picker";

const providers = [
  { id: "demo", available: true },
  { id: "openai", available: false },
];
const render = (value: string) => renderToStaticMarkup(createElement(ModelPicker, { id: "m", value, providers, disabled: false, onChange: () => undefined }));

describe("the model picker", () => {
  it("offers inheriting the caller's model (DD-7), and shows no model name then", () => {
    const inheriting = render("inherit");
    expect(inheriting).toContain('<option value="inherit" selected="">inherit (caller&#x27;s model)</option>');
    expect(inheriting).not.toContain('aria-label="Model name"');
    const own = render("demo/assistant");
    expect(own).toContain('<option value="demo" selected="">demo</option>');
    expect(own).toContain('value="assistant"');
  });
});
