import { describe, expect, it } from "vitest";
import { canonicalJson, childTapePath, logicalChildName, treePaths } from "./paths";

const ROOT = "lead-6f1c2b8e-8a3d-4c55-9d2e-0b7a1f3e9c11";

describe("logicalChildName", () => {
  it("strips the uuid fragment of sub-agent conversations and routed children", () => {
    expect(logicalChildName(ROOT, `${ROOT}.billing-1a2b3c4d`)).toBe("billing");
    expect(logicalChildName(ROOT, `${ROOT}.route-2-billing-deadbeef`)).toBe("route-2-billing");
  });
  it("strips a plan node's attempt number and keeps a later plan's prefix", () => {
    expect(logicalChildName(ROOT, `${ROOT}.node-n1-1`)).toBe("node-n1");
    expect(logicalChildName(ROOT, `${ROOT}.node-flights-12`)).toBe("node-flights");
    expect(logicalChildName(ROOT, `${ROOT}.p2.node-n1-3`)).toBe("p2.node-n1");
    expect(logicalChildName(ROOT, `${ROOT}.synthesis`)).toBe("synthesis");
  });
  it("keeps names that merely look like fragments when they are not 8 hex digits", () => {
    expect(logicalChildName(ROOT, `${ROOT}.shipping-eu`)).toBe("shipping-eu");
    expect(logicalChildName(ROOT, `${ROOT}.agent-12345678x`)).toBe("agent-12345678x");
  });
  it("refuses ids that are not the parent's children", () => {
    expect(logicalChildName(ROOT, "other-run.billing-1a2b3c4d")).toBeNull();
    expect(logicalChildName(ROOT, `${ROOT}.`)).toBeNull();
    expect(logicalChildName(ROOT, ROOT)).toBeNull();
  });
});

describe("treePaths", () => {
  it("gives the root '' and each child its parent's path, logical name and ordinal in start order", () => {
    const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const billing1 = `${ROOT}.billing-aaaaaaaa`;
    const billing2 = `${ROOT}.billing-00000000`;
    const nested = `${billing2}.ledger-bbbbbbbb`;
    const paths = treePaths(ROOT, [
      { id: ROOT, parentRunId: null, startedAt: t(0) },
      // Listed out of order: the start time decides, not the id or the listing.
      { id: billing2, parentRunId: ROOT, startedAt: t(5) },
      { id: billing1, parentRunId: ROOT, startedAt: t(2) },
      { id: `${ROOT}.node-n1-1`, parentRunId: ROOT, startedAt: t(3) },
      { id: `${ROOT}.node-n1-2`, parentRunId: ROOT, startedAt: t(4) },
      { id: nested, parentRunId: billing2, startedAt: t(6) },
      { id: "stray-run", parentRunId: ROOT, startedAt: t(1) },
    ]);
    expect(Object.fromEntries(paths)).toEqual({
      [ROOT]: "",
      [billing1]: ".billing#1",
      [billing2]: ".billing#2",
      [`${ROOT}.node-n1-1`]: ".node-n1#1",
      [`${ROOT}.node-n1-2`]: ".node-n1#2",
      [nested]: ".billing#2.ledger#1",
    });
  });
  it("agrees with the path the workflow builds as it starts children", () => {
    expect(childTapePath(childTapePath("", "billing", 2), "ledger", 1)).toBe(".billing#2.ledger#1");
  });
});

describe("canonicalJson", () => {
  it("is the same text for the same arguments in any key order", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(canonicalJson({ a: { c: null, d: [1, { x: 1, y: 2 }] }, b: 1 }));
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: "1" }));
  });
});
