import { describe, expect, it } from "vitest";
import { labelNameSchema, setLabelInput } from "./schemas";
import { launchRunSchema } from "../runs/schemas";

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => result.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];

describe("label inputs", () => {
  it("takes names like production, staging, canary-eu, and refuses others", () => {
    for (const name of ["production", "staging", "canary-eu", "v2_test", "a"]) expect(labelNameSchema.safeParse(name).success).toBe(true);
    for (const name of ["Production", "1st", "", "a".repeat(33), "prod uction", "-x"]) expect(labelNameSchema.safeParse(name).success).toBe(false);
  });

  it("refuses a share out of 0–100, a context split without its key, a key without a context split, and unknown keys", () => {
    const base = { name: "support-triage", label: "production", version: 2 };
    expect(messages(setLabelInput.safeParse({ ...base, split: { version: 3, percent: 101 } }))).toEqual(["split.percent: a share is 0 to 100 (%)"]);
    expect(messages(setLabelInput.safeParse({ ...base, split: { version: 3, percent: -1 } }))).toEqual(["split.percent: a share is 0 to 100 (%)"]);
    expect(messages(setLabelInput.safeParse({ ...base, split: { version: 3, percent: 20, sticky: "context" } }))).toEqual(["split.contextKey: name the context key the split sticks to (e.g. customerId)"]);
    expect(messages(setLabelInput.safeParse({ ...base, split: { version: 3, percent: 20, contextKey: "customerId" } }))).toEqual(['split.contextKey: a context key is only for sticky: "context"']);
    expect(setLabelInput.safeParse({ ...base, colour: "red" }).success).toBe(false);
    expect(setLabelInput.parse({ ...base, split: { version: 3, percent: 20 } }).split).toEqual({ version: 3, percent: 20, sticky: "conversation" });
    expect(setLabelInput.parse(base).split).toBeNull();
  });

  it("a run start names a version or a label, not both", () => {
    expect(launchRunSchema.safeParse({ graph: "support-triage", task: "hi", label: "production" }).success).toBe(true);
    expect(messages(launchRunSchema.safeParse({ graph: "support-triage", task: "hi", label: "production", version: 2 }))).toEqual(["label: name a version or a label, not both"]);
    expect(launchRunSchema.safeParse({ graph: "support-triage", task: "hi", label: "Prod" }).success).toBe(false);
  });
});
