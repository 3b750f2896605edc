// What a webhook endpoint may be created with, and what a delivery's body must be for each mapping.
import { describe, expect, it } from "vitest";
import { zodIssues } from "../errors";
import { deliveryBodySchema, launchOf, templateFields, webhookCreateSchema, webhookPatchSchema, type WebhookMapping } from "./schemas";

const pathsOf = (result: { success: boolean; error?: { issues: readonly { path: PropertyKey[]; message: string; code?: string }[] } }) => (result.success ? [] : zodIssues(result.error?.issues ?? []).map((i) => i.path));
const template: WebhookMapping = { kind: "template", template: "Triage {{ title }} ({{url}})", fields: ["title", "url"] };

describe("webhook endpoint input", () => {
  it("defaults to the plain task mapping, enabled, 60 deliveries a minute, the default version", () => {
    expect(webhookCreateSchema.parse({ name: "GitHub issues", graph: "support-triage" })).toEqual({ name: "GitHub issues", graph: "support-triage", mapping: { kind: "task" }, enabled: true, rateLimitPerMinute: 60 });
  });

  it("names the field of bad input", () => {
    expect(pathsOf(webhookCreateSchema.safeParse({ name: "", graph: "support-triage" }))).toEqual(["name"]);
    expect(pathsOf(webhookCreateSchema.safeParse({ name: "x", graph: "support-triage", rateLimitPerMinute: 0 }))).toEqual(["rateLimitPerMinute"]);
    expect(pathsOf(webhookCreateSchema.safeParse({ name: "x", graph: "support-triage", secret: "mine" }))).toEqual(["(root)"]);
    expect(pathsOf(webhookCreateSchema.safeParse({ name: "x", graph: "support-triage", version: 0 }))).toEqual(["version"]);
  });

  it("checks a template's placeholders against its fields", () => {
    expect(templateFields("{{a}} and {{ b }} and {{a}}")).toEqual(["a", "b"]);
    expect(webhookCreateSchema.safeParse({ name: "x", graph: "g", mapping: template }).success).toBe(true);
    const unknown = webhookCreateSchema.safeParse({ name: "x", graph: "g", mapping: { ...template, fields: ["title"] } });
    expect(pathsOf(unknown)).toEqual(["mapping.template"]);
    expect(pathsOf(webhookCreateSchema.safeParse({ name: "x", graph: "g", mapping: { ...template, fields: ["title", "url", "title"] } }))).toEqual(["mapping.fields"]);
    expect(pathsOf(webhookCreateSchema.safeParse({ name: "x", graph: "g", mapping: { ...template, fields: ["1st", "title", "url"] } }))).toEqual(["mapping.fields[0]"]);
  });

  it("a patch changes something, and only what it may", () => {
    expect(webhookPatchSchema.safeParse({}).success).toBe(false);
    expect(webhookPatchSchema.parse({ enabled: false })).toEqual({ enabled: false });
    expect(pathsOf(webhookPatchSchema.safeParse({ graph: "other" })), "the graph is fixed: a new graph is a new endpoint").toContain("(root)");
  });
});

describe("a delivery's body", () => {
  it("under the task mapping: { task, context? }, strict", () => {
    const schema = deliveryBodySchema({ kind: "task" });
    expect(schema.parse({ task: "triage #42", context: { issue: 42 } })).toEqual({ task: "triage #42", context: { issue: 42 } });
    expect(pathsOf(schema.safeParse({ context: {} }))).toEqual(["task"]);
    expect(pathsOf(schema.safeParse({ task: "   " }))).toEqual(["task"]);
    expect(pathsOf(schema.safeParse({ task: "x", context: [1] }))).toEqual(["context"]);
    expect(pathsOf(schema.safeParse({ task: "x", priority: "high" }))).toEqual(["(root)"]);
    expect(launchOf({ kind: "task" }, { task: "triage #42" })).toEqual({ task: "triage #42", context: {} });
  });

  it("under a template: exactly its fields as strings; the task is the template filled in, the context the body", () => {
    const schema = deliveryBodySchema(template);
    const body = { title: "Login fails", url: "https://example.test/42" };
    expect(schema.parse(body)).toEqual(body);
    expect(pathsOf(schema.safeParse({ title: "Login fails" }))).toEqual(["url"]);
    expect(pathsOf(schema.safeParse({ ...body, url: 42 }))).toEqual(["url"]);
    expect(pathsOf(schema.safeParse({ ...body, extra: "x" }))).toEqual(["(root)"]);
    expect(launchOf(template, body)).toEqual({ task: "Triage Login fails (https://example.test/42)", context: body });
  });
});
