import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, createNonce } from "./security-headers";

describe("contentSecurityPolicy", () => {
  it("allows scripts only with the request's nonce, and no framing", () => {
    const csp = contentSecurityPolicy("abc123", { dev: false });
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  it("adds 'unsafe-eval' only for next dev", () => {
    expect(contentSecurityPolicy("n", { dev: true })).toContain("'unsafe-eval'");
    expect(contentSecurityPolicy("n", { dev: false })).not.toContain("'unsafe-eval'");
  });

  it("creates a different 128-bit nonce each time", () => {
    const a = createNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(createNonce()).not.toBe(a);
  });
});
