import { describe, expect, it, vi } from "vitest";
import { discoverMcpTools } from "./discover";
import { mcpServerSchema } from "../schemas";

describe("discover tools of an MCP server", () => {
  it("lists every tool of the repository's demo server, even those outside the allow-list", async () => {
    const server = mcpServerSchema.parse({ name: "kb", transport: { type: "stdio", command: "node", args: ["--import", "tsx", "worker/tools/mcp-demo-server.ts"] }, allowTools: ["search_kb"] });
    const result = await discoverMcpTools(server);
    expect(result.ok && result.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["search_kb", "create_ticket", "echo_context"]));
  }, 30_000);

  it("says why it could not connect", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const result = await discoverMcpTools(mcpServerSchema.parse({ name: "nowhere", transport: { type: "http", url: "http://127.0.0.1:9/mcp" } }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/^MCP server "nowhere" is unreachable: /);
    logged.mockRestore();
  }, 30_000);
});
