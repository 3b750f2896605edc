import { describe, expect, it } from "vitest";
import { canonicalJson, decisionSignatureProblem, DECISION_SIGNATURE_WINDOW_MS, signDecision, type SignedDecisionFields } from "./decision-signature";

const key = Buffer.alloc(32, 7);
const fields: SignedDecisionFields = {
  runId: "main-1",
  approvalId: "a-1",
  approved: true,
  reason: null,
  editedArguments: { b: 1, a: { d: 2, c: [1, { f: 1, e: 2 }] } },
  decidedBy: { id: "u-1", email: "approver@zap.local", role: "approver" },
  issuedAt: new Date(1_700_000_000_000).toISOString(),
};
const now = 1_700_000_000_000 + 1000;

describe("decision signatures", () => {
  it("canonical JSON sorts keys at every level", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"x":2,"y":1}]},"b":1}');
  });

  it("accepts the genuine decision, whatever the key order of its edited arguments", () => {
    const signature = signDecision(key, fields);
    expect(decisionSignatureProblem(key, { ...fields, editedArguments: { a: { c: [1, { e: 2, f: 1 }], d: 2 }, b: 1 } }, signature, now)).toBeNull();
  });

  it("refuses a changed field, another approval, another key, no signature and an old signature", () => {
    const signature = signDecision(key, fields);
    expect(decisionSignatureProblem(key, { ...fields, decidedBy: { ...fields.decidedBy, role: "admin" } }, signature, now)).toMatch(/not signed/);
    expect(decisionSignatureProblem(key, { ...fields, approvalId: "a-2" }, signature, now)).toMatch(/not signed/);
    expect(decisionSignatureProblem(Buffer.alloc(32, 8), fields, signature, now)).toMatch(/not signed/);
    expect(decisionSignatureProblem(key, fields, undefined, now)).toMatch(/not signed/);
    expect(decisionSignatureProblem(key, fields, signature, now + DECISION_SIGNATURE_WINDOW_MS)).toMatch(/expired/);
    expect(decisionSignatureProblem(null, fields, signature, now)).toMatch(/no key/);
  });

  it("signs the API key a decision was made with: added, removed or swapped, it is refused; a decision without one signs as before", () => {
    const withKey = { ...fields, decidedBy: { ...fields.decidedBy, apiKeyId: "key-1" } };
    const signature = signDecision(key, withKey);
    expect(decisionSignatureProblem(key, withKey, signature, now)).toBeNull();
    expect(decisionSignatureProblem(key, fields, signature, now), "the key id dropped").toMatch(/not signed/);
    expect(decisionSignatureProblem(key, { ...fields, decidedBy: { ...fields.decidedBy, apiKeyId: "key-2" } }, signature, now), "another key named").toMatch(/not signed/);
    expect(decisionSignatureProblem(key, withKey, signDecision(key, fields), now), "a key id added to a decision signed without one").toMatch(/not signed/);
    expect(signDecision(key, { ...fields, decidedBy: { ...fields.decidedBy, apiKeyId: undefined } }), "no key: the signature of the decisions signed before keys existed").toBe(signDecision(key, fields));
  });
});
