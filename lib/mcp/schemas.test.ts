import { describe, expect, it } from "vitest";
import { mcpServerCreateSchema, mcpServerUpdateSchema } from "./schemas";
import { isStartUpVariable, parseStdioAllowlist, refusedEnvNames, stdioAllowEntry, stdioCommandAllowed } from "./allowlist";

function entries(text: string) {
  const parsed = parseStdioAllowlist(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.entries;
}

describe("MCP registration input", () => {
  it("accepts a stdio server with env secrets and an HTTP server with header secrets", () => {
    expect(mcpServerCreateSchema.safeParse({ name: "kb", transport: { type: "stdio", command: "node", args: ["a.js"] }, secrets: { API_TOKEN: "x" } }).success).toBe(true);
    expect(mcpServerCreateSchema.safeParse({ name: "web_1", transport: { type: "http", url: "https://mcp.example.com/mcp" }, secrets: { "X-Api-Key": "k" } }).success).toBe(true);
  });

  it.each([
    ["an upper-case name", { name: "KB", transport: { type: "stdio", command: "node" } }, "name"],
    ["an unknown key", { name: "kb", transport: { type: "stdio", command: "node" }, env: {} }, "(root)"],
    ["an env inside the transport", { name: "kb", transport: { type: "stdio", command: "node", env: { A: "b" } } }, "transport"],
    ["a file URL", { name: "kb", transport: { type: "http", url: "file:///etc/passwd" } }, "transport.url"],
    ["a header value with a line break", { name: "kb", transport: { type: "http", url: "https://x.test/" }, secrets: { A: "1\r\nX-Evil: 2" } }, "secrets.A"],
  ])("refuses %s", (_label, input, path) => {
    const result = mcpServerCreateSchema.safeParse(input);
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((i) => i.path.join(".") || "(root)") ?? [];
    expect(paths.some((p) => p.startsWith(path === "(root)" ? "" : path)), JSON.stringify(paths)).toBe(true);
  });

  it("an update keeps omitted secrets and removes null ones (the schema allows both)", () => {
    expect(mcpServerUpdateSchema.parse({ secrets: { KEEP_ME_OUT: null, NEW: "v" } }).secrets).toEqual({ KEEP_ME_OUT: null, NEW: "v" });
  });
});

describe("the stdio allowlist", () => {
  it("allows only the bundled demo server by default", () => {
    expect(stdioCommandAllowed(null, "node", ["--import", "tsx", "worker/tools/mcp-demo-server.ts"])).toBe(true);
    expect(stdioCommandAllowed(null, "node", ["-e", "require('child_process').execSync('id')"])).toBe(false);
    expect(stdioCommandAllowed(null, "sh", ["-c", "node --import tsx worker/tools/mcp-demo-server.ts"])).toBe(false);
  });

  it("compares command and arguments as a list, not a space-joined line (issue 23 §2)", () => {
    expect(stdioCommandAllowed(null, "node", ["--import tsx", "worker/tools/mcp-demo-server.ts"])).toBe(false);
    expect(stdioCommandAllowed(null, "node --import tsx", ["worker/tools/mcp-demo-server.ts"])).toBe(false);
    expect(stdioCommandAllowed(null, "node", ["--import", "tsx worker/tools/mcp-demo-server.ts"])).toBe(false);
  });

  it("compares whole command lines from the operator's list", () => {
    const list = entries("npx -y @modelcontextprotocol/server-filesystem /srv/docs");
    expect(stdioCommandAllowed(list, "npx", ["-y", "@modelcontextprotocol/server-filesystem", "/srv/docs"])).toBe(true);
    expect(stdioCommandAllowed(list, "npx", ["-y", "@modelcontextprotocol/server-filesystem", "/"])).toBe(false);
    expect(stdioCommandAllowed(list, "node", ["--import", "tsx", "worker/tools/mcp-demo-server.ts"])).toBe(false);
  });
});

describe("the stdio allowlist's format and environment names (issue 23 §2)", () => {
  it("reads the JSON form, whose arguments are a list and may hold spaces", () => {
    const list = entries(JSON.stringify([{ command: "/opt/mcp/bin/crm", args: ["--root", "/srv/my docs"], env: ["CRM_TOKEN"] }, { command: "npx", args: ["-y", "@acme/mcp"] }]));
    expect(list).toEqual([
      { command: "/opt/mcp/bin/crm", args: ["--root", "/srv/my docs"], env: ["CRM_TOKEN"] },
      { command: "npx", args: ["-y", "@acme/mcp"], env: [] },
    ]);
    expect(stdioCommandAllowed(list, "/opt/mcp/bin/crm", ["--root", "/srv/my docs"])).toBe(true);
    expect(stdioCommandAllowed(list, "/opt/mcp/bin/crm", ["--root", "/srv/my", "docs"])).toBe(false);
  });

  it("reads the older line form as lists with no environment variables", () => {
    expect(entries(" node  --import tsx a.ts ; /bin/x ")).toEqual([
      { command: "node", args: ["--import", "tsx", "a.ts"], env: [] },
      { command: "/bin/x", args: [], env: [] },
    ]);
  });

  it.each(["NODE_OPTIONS", "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "PYTHONSTARTUP", "PYTHONPATH", "PERL5OPT", "RUBYOPT", "NODE_PATH", "BASH_ENV", "ENV", "JAVA_TOOL_OPTIONS", "npm_config_registry", "GIT_SSH_COMMAND", "PATH", "HOME"])(
    "an entry may never allow %s",
    (name) => {
      const parsed = parseStdioAllowlist(JSON.stringify([{ command: "node", args: ["x.js"], env: [name] }]));
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.message).toContain(name);
    },
  );

  it("refuses malformed JSON and unknown keys", () => {
    expect(parseStdioAllowlist("[{").ok).toBe(false);
    expect(parseStdioAllowlist(JSON.stringify([{ command: "node", cwd: "/" }])).ok).toBe(false);
    expect(parseStdioAllowlist(JSON.stringify([{ command: "node", env: ["A=B"] }])).ok).toBe(false);
  });

  it("a registered name passes only when its entry lists it and it is no start-up variable", () => {
    const entry = stdioAllowEntry(null, "node", ["--import", "tsx", "worker/tools/mcp-demo-server.ts"]);
    expect(entry?.env).toEqual(["KB_TOKEN"]);
    if (!entry) return;
    expect(refusedEnvNames(entry, ["KB_TOKEN"])).toEqual([]);
    expect(refusedEnvNames(entry, ["OTHER", "NODE_OPTIONS"]).map((r) => r.name)).toEqual(["OTHER", "NODE_OPTIONS"]);
    // Whatever a (hand-built) entry says.
    expect(refusedEnvNames({ ...entry, env: ["NODE_OPTIONS", "LD_PRELOAD"] }, ["NODE_OPTIONS", "LD_PRELOAD"]).map((r) => r.name)).toEqual(["NODE_OPTIONS", "LD_PRELOAD"]);
    expect(isStartUpVariable("NODE_ENV")).toBe(false);
    expect(isStartUpVariable("GITHUB_TOKEN")).toBe(false);
    expect(isStartUpVariable("node_options")).toBe(true);
  });
});
