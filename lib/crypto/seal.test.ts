import { describe, expect, it } from "vitest";
import { deriveKey } from "./keys";
import { seal, SealError, unseal } from "./seal";

describe("sealed values", () => {
  const key = deriveKey("a".repeat(32), "mcp-secrets");

  it("opens what it sealed, and never shows the plaintext", () => {
    const sealed = seal(key, '{"API_TOKEN":"tok-123"}');
    expect(sealed).not.toContain("tok-123");
    expect(unseal(key, sealed)).toBe('{"API_TOKEN":"tok-123"}');
    expect(seal(key, "same")).not.toBe(seal(key, "same"));
  });

  it("refuses another purpose's key, other material and a changed byte", () => {
    const sealed = seal(key, "secret");
    expect(() => unseal(deriveKey("a".repeat(32), "approval-decisions"), sealed)).toThrow(SealError);
    expect(() => unseal(deriveKey("b".repeat(32), "mcp-secrets"), sealed)).toThrow(SealError);
    const raw = Buffer.from(sealed.slice(3), "base64url");
    raw.writeUInt8(raw.readUInt8(raw.length - 1) ^ 1, raw.length - 1);
    expect(() => unseal(key, `v1.${raw.toString("base64url")}`)).toThrow(SealError);
  });
});
