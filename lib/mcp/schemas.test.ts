import { describe, expect, it } from "vitest";
import { mcpServerCreateSchema, mcpServerUpdateSchema } from "./schemas";
import { stdioCommandAllowed } from "./allowlist";

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

  it("compares whole command lines from the operator's list", () => {
    const list = ["npx -y @modelcontextprotocol/server-filesystem /srv/docs"];
    expect(stdioCommandAllowed(list, "npx", ["-y", "@modelcontextprotocol/server-filesystem", "/srv/docs"])).toBe(true);
    expect(stdioCommandAllowed(list, "npx", ["-y", "@modelcontextprotocol/server-filesystem", "/"])).toBe(false);
    expect(stdioCommandAllowed(list, "node", ["--import", "tsx", "worker/tools/mcp-demo-server.ts"])).toBe(false);
  });
});
