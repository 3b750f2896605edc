import { describe, expect, it } from "vitest";
import { z } from "zod";
import { imageInputsSchema } from "../attachments/schemas";
import { launchRunSchema } from "../runs/schemas";
import { legacyMcpTransportSchema } from "../agents/schemas";
import { zodIssues } from "../errors";
import { orList, REPORT_INPUT } from "../union-issues";

/** The field issues a caller of the HTTP API gets for `value` against `schema` (parsed as lib/http/server parses). */
function issuesOf(schema: z.ZodType, value: unknown, options: { reportInput?: boolean } = REPORT_INPUT) {
  const parsed = schema.safeParse(value, options);
  if (parsed.success) throw new Error("expected the value to be refused");
  return zodIssues(parsed.error.issues);
}

describe("a value that matches no branch of a union", () => {
  it("names the image shapes the API takes, and the key it got", () => {
    expect(issuesOf(z.strictObject({ images: imageInputsSchema }), { images: [{ id: "att_1" }] })).toEqual([{ path: "images[0]", message: "use { attachmentId }, { data } or { url } (got { id })" }]);
  });

  it("says so on the launch body too, never \"Invalid input\"", () => {
    const issues = issuesOf(launchRunSchema, { graph: "help-desk", task: "hi", images: [{ id: "x" }] });
    expect(issues.find((i) => i.path === "images[0]")?.message).toBe("use { attachmentId }, { data } or { url } (got { id })");
    expect(issues.map((i) => i.message)).not.toContain("Invalid input");
  });

  it("an empty object has no unknown key to name", () => {
    expect(issuesOf(imageInputsSchema, [{}])).toEqual([{ path: "[0]", message: "use { attachmentId }, { data } or { url }" }]);
  });

  it("without the input (a schema parsed elsewhere) zod's own words tell a missing key", () => {
    expect(issuesOf(z.strictObject({ images: imageInputsSchema }), { images: [{ id: "att_1" }] }, {})).toEqual([{ path: "images[0]", message: "use { attachmentId }, { data } or { url } (got { id })" }]);
  });

  it("a value of the wrong type says the type the union takes", () => {
    expect(issuesOf(imageInputsSchema, ["https://example.com/cat.png"])).toEqual([{ path: "[0]", message: "expected an object" }]);
  });

  it("a value that plainly meant one branch gets that branch's precise errors", () => {
    expect(issuesOf(imageInputsSchema, [{ attachmentId: 42 }])).toEqual([{ path: "[0].attachmentId", message: "Invalid input: expected string, received number" }]);
    expect(issuesOf(imageInputsSchema, [{ url: "ftp://example.com/a.png" }])).toEqual([{ path: "[0].url", message: "use an http or https URL" }]);
  });

  it("keeps a strict object's unknown key precise", () => {
    expect(issuesOf(imageInputsSchema, [{ attachmentId: "img_0123456789abcdef0123456789abcdef", extra: true }])).toEqual([{ path: "[0]", message: 'Unrecognized key: "extra"' }]);
  });

  it("scalar branches read as the values and types expected", () => {
    expect(issuesOf(z.object({ mode: z.union([z.literal("auto"), z.number()]) }), { mode: "sometimes" })).toEqual([{ path: "mode", message: 'expected "auto" or a number' }]);
  });

  it("a discriminated union names the discriminator's values", () => {
    const [issue] = issuesOf(legacyMcpTransportSchema, { type: "carrier-pigeon" });
    expect(issue?.path).toBe("type");
    expect(issue?.message).toMatch(/stdio/);
  });
});

describe("orList", () => {
  it("joins with commas and a final or", () => {
    expect(orList([])).toBe("");
    expect(orList(["a"])).toBe("a");
    expect(orList(["a", "b"])).toBe("a or b");
    expect(orList(["a", "b", "c"])).toBe("a, b or c");
  });
});

describe("a scalar union", () => {
  it("a value of the right type that fails its check gets that check's words", () => {
    const [issue] = issuesOf(launchRunSchema, { graph: "help-desk", task: "hi", model: "not a model id" });
    expect(issue?.path).toBe("model");
    expect(issue?.message).not.toBe("Invalid input");
  });
});
