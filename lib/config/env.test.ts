import { describe, expect, it } from "vitest";
import { debugRequested, EnvError, parseEnv } from "./env";

const ROOT = "/srv/zap";

function errorOf(env: Record<string, string>): EnvError {
  try {
    parseEnv(env, ROOT);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error("expected parseEnv to reject this environment");
}

describe("parseEnv", () => {
  it("fills every default from an empty environment", () => {
    const config = parseEnv({}, ROOT);
    expect(config.databaseUrl).toBe("file:/srv/zap/.data/zap.db");
    expect(config.databaseProvider).toBe("sqlite");
    expect(config.temporal).toMatchObject({ address: "127.0.0.1:7233", namespace: "default", taskQueue: "zap-agents", tls: null });
    expect(config.temporal.uiUrl).toBe("http://127.0.0.1:8233");
    expect(config.server).toEqual({ port: 3000, host: "127.0.0.1" });
    expect(config.auth.oauthDefaultRole).toBe("viewer");
  });

  it("reads the prebuilt workflow bundle the worker loads (set by npm start), none by default", () => {
    expect(parseEnv({}, ROOT).temporal.workflowBundlePath).toBeNull();
    expect(parseEnv({ ZAP_WORKFLOW_BUNDLE: "/srv/zap/.data/workflow-bundle.js" }, ROOT).temporal.workflowBundlePath).toBe("/srv/zap/.data/workflow-bundle.js");
  });

  it("reads ZAP_DEBUG as a yes/no switch, off by default, and names it when it is neither", () => {
    expect(parseEnv({}, ROOT).debug).toBe(false);
    expect(parseEnv({ ZAP_DEBUG: "1" }, ROOT).debug).toBe(true);
    expect(errorOf({ ZAP_DEBUG: "loud" }).issues.map((i) => i.variable)).toEqual(["ZAP_DEBUG"]);
  });

  it("reads ZAP_DEBUG on its own for failure reports, even when another variable is invalid", () => {
    expect(debugRequested({ ZAP_DEBUG: "1", TEMPORAL_ADDRESS: "nope" })).toBe(true);
    expect(debugRequested({ ZAP_DEBUG: "false" })).toBe(false);
    expect(debugRequested({ ZAP_DEBUG: "loud" })).toBe(false);
    expect(debugRequested({})).toBe(false);
  });

  it("selects PostgreSQL from a postgres:// or postgresql:// URL", () => {
    expect(parseEnv({ DATABASE_URL: "postgres://u@db:5432/zap" }, ROOT).databaseProvider).toBe("postgresql");
    expect(parseEnv({ DATABASE_URL: "postgresql://u@db/zap" }, ROOT).databaseUrl).toBe("postgresql://u@db/zap");
  });

  it("resolves a relative SQLite path against the project root", () => {
    expect(parseEnv({ DATABASE_URL: "file:./var/app.db" }, ROOT).databaseUrl).toBe("file:/srv/zap/var/app.db");
  });

  it("treats empty variables as unset", () => {
    expect(parseEnv({ PORT: "", TEMPORAL_ADDRESS: " " }, ROOT).server.port).toBe(3000);
  });

  it.each([
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL", "file: URL (SQLite) or a postgres://"],
    [{ TEMPORAL_ADDRESS: "nope" }, "TEMPORAL_ADDRESS", 'expected host:port, e.g. 127.0.0.1:7233 (got "nope")'],
    [{ PORT: "99999" }, "PORT", "between 1 and 65535"],
    [{ PORT: "abc" }, "PORT", "expected a port number"],
    [{ TEMPORAL_TLS: "maybe" }, "TEMPORAL_TLS", "expected true or false"],
    [{ TEMPORAL_NAMESPACE: "has space" }, "TEMPORAL_NAMESPACE", "namespace name"],
    [{ AUTH_OAUTH_DEFAULT_ROLE: "root" }, "AUTH_OAUTH_DEFAULT_ROLE", "viewer, builder, approver, admin"],
    [{ TEMPORAL_TLS_CERT: "/c.pem" }, "TEMPORAL_TLS_KEY", "must be set together"],
    [{ AUTH_GITHUB_ID: "id" }, "AUTH_GITHUB_SECRET", "must be set together"],
    [{ ZAP_DEFAULT_MODEL: "gpt-4" }, "ZAP_DEFAULT_MODEL", "<provider>/<model>"],
    [{ OPENAI_COMPATIBLE_BASE_URL: "ftp://x" }, "OPENAI_COMPATIBLE_BASE_URL", "http(s) URL"],
  ])("names the variable and the problem for %j", (env, variable, fragment) => {
    const error = errorOf(env);
    const issue = error.issues.find((i) => i.variable === variable);
    expect(issue, `expected an issue for ${variable}, got ${JSON.stringify(error.issues)}`).toBeDefined();
    expect(issue?.message).toContain(fragment);
    expect(error.message).toContain(`${variable}: `);
  });

  it("reports every bad variable at once", () => {
    const error = errorOf({ PORT: "0", TEMPORAL_ADDRESS: "x", DATABASE_URL: "oracle:" });
    expect(error.issues.map((i) => i.variable).sort()).toEqual(["DATABASE_URL", "PORT", "TEMPORAL_ADDRESS"]);
  });

  it("never echoes a secret's value", () => {
    const error = errorOf({ AUTH_SECRET: "short-secret-value" });
    expect(error.issues[0]?.variable).toBe("AUTH_SECRET");
    expect(error.message).toContain("at least 32 characters");
    expect(error.message).not.toContain("short-secret-value");
  });

  it("switches on TLS for an API key and reads mTLS paths", () => {
    expect(parseEnv({ TEMPORAL_API_KEY: "key-123456789" }, ROOT).temporal.tls).toEqual({});
    const mtls = parseEnv({ TEMPORAL_TLS_CERT: "/c.pem", TEMPORAL_TLS_KEY: "/k.pem", TEMPORAL_TLS_SERVER_NAME: "ns.tmprl.cloud" }, ROOT);
    expect(mtls.temporal.tls).toEqual({ certPath: "/c.pem", keyPath: "/k.pem", caPath: undefined, serverName: "ns.tmprl.cloud" });
    expect(parseEnv({ TEMPORAL_API_KEY: "key-123456789", TEMPORAL_TLS: "false" }, ROOT).temporal.tls).toBeNull();
  });
});
