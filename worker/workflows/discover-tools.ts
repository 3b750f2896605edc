// A one-step workflow so the web server can ask a worker to list a registered
// MCP server's tools: the web process never spawns or connects to one itself.
import { proxyActivities } from "@temporalio/workflow";
import type { Activities } from "../activities";
import type { McpDiscoverResult } from "../../lib/mcp/schemas";

const { discoverMcpTools } = proxyActivities<Activities>({
  // Connecting waits up to 10 s; the caller gives up after about 20 s.
  startToCloseTimeout: "15 seconds",
  // The activity answers failures itself; only a lost worker is retried, once.
  retry: { maximumAttempts: 2, initialInterval: "1 second" },
});

export async function discoverMcpToolsWorkflow(input: { name: string }): Promise<McpDiscoverResult> {
  return discoverMcpTools({ name: input.name });
}
