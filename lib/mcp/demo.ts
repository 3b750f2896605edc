// The bundled demo MCP server, registered by the seed on an empty registry so
// the demo graphs (which name it) run out of the box.
import { DEMO_MCP_ARGV } from "./schemas";

const [command, ...args] = DEMO_MCP_ARGV;

export const DEMO_MCP_SERVERS = [
  {
    name: "kb",
    description: "The bundled demo knowledge base (worker/tools/mcp-demo-server.ts).",
    transport: "stdio",
    config: { command, args },
    allowTools: ["search_kb", "create_ticket"],
    guardrailTools: ["screen_text"],
  },
] as const;
