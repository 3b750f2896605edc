import { describe, expect, it } from "vitest";
import { clientIp, normalizeAttemptEmail } from "./throttle";

describe("clientIp", () => {
  const headers = (xff?: string) => new Headers(xff ? { "x-forwarded-for": xff } : {});

  it("is one shared bucket unless a trusted proxy is configured: the header could be forged", () => {
    expect(clientIp(headers("198.51.100.7"), false)).toBe("direct");
  });

  it("behind a trusted proxy, takes the hop the proxy appended (the last), not what the client sent", () => {
    expect(clientIp(headers("10.9.9.9, 198.51.100.7"), true)).toBe("198.51.100.7");
    expect(clientIp(headers("::ffff:198.51.100.7"), true), "IPv4-mapped IPv6 is the IPv4 address").toBe("198.51.100.7");
  });

  it("falls back to the shared bucket when the header is missing or not an address", () => {
    expect(clientIp(headers(), true)).toBe("direct");
    expect(clientIp(headers("198.51.100.7, not-an-ip"), true)).toBe("direct");
  });
});

describe("normalizeAttemptEmail", () => {
  it("keys attempts case-insensitively and bounds their length", () => {
    expect(normalizeAttemptEmail("  Admin@Zap.Local ")).toBe("admin@zap.local");
    expect(normalizeAttemptEmail("a".repeat(400))).toHaveLength(320);
    expect(normalizeAttemptEmail(undefined)).toBe("");
  });
});
