import { afterEach, describe, expect, it, vi } from "vitest";

async function configWith(env: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return (await import("./auth-config")).authConfig;
}

afterEach(() => vi.unstubAllEnvs());

describe("session cookies", () => {
  it("in production over HTTPS are Secure with the __Host- prefix", async () => {
    const config = await configWith({ NODE_ENV: "production", AUTH_URL: "https://zap.example.com" });
    expect(config.useSecureCookies).toBe(true);
    expect(config.cookies.sessionToken).toMatchObject({ name: "__Host-authjs.session-token", options: { secure: true, path: "/", httpOnly: true, sameSite: "lax" } });
    expect(config.cookies.sessionToken.options, "a __Host- cookie must not name a domain").not.toHaveProperty("domain");
  });

  it("stay plain over HTTP (local demo, e2e), where a Secure cookie would never be sent back", async () => {
    for (const env of [{ NODE_ENV: "production", AUTH_URL: undefined }, { NODE_ENV: "production", AUTH_URL: "http://127.0.0.1:3000" }, { NODE_ENV: "development", AUTH_URL: "https://zap.example.com" }]) {
      const config = await configWith(env);
      expect(config.useSecureCookies).toBe(false);
      expect(config.cookies.sessionToken.name).toBe("authjs.session-token");
    }
  });
});
