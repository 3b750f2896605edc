// The stdio allowlist lives in lib/config (the configuration parses it); MCP code imports it from here.
export * from "../config/mcp-allowlist";
