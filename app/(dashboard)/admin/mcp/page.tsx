import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { mcpServers } from "@/lib/mcp/server/web";
import { PageHeader } from "@/components/ui/page-header";
import { McpRegistry, type McpPrefill } from "./mcp-client";

export const metadata: Metadata = { title: "MCP servers" };
export const dynamic = "force-dynamic";

/** Reads the "Register this server" link of the designer: settings of a legacy inline server (never secret values). */
function prefillFrom(params: Record<string, string | string[] | undefined>): McpPrefill | null {
  const one = (key: string) => (typeof params[key] === "string" ? params[key] : undefined);
  const name = one("register");
  if (!name) return null;
  let args: string[] = [];
  try {
    const parsed: unknown = JSON.parse(one("args") ?? "[]");
    if (Array.isArray(parsed)) args = parsed.filter((a): a is string => typeof a === "string");
  } catch {
    args = [];
  }
  const url = one("url");
  return {
    name,
    transport: url ? { type: "http", url } : { type: "stdio", command: one("command") ?? "", args },
    allowTools: (one("allowTools") ?? "").split(",").filter(Boolean),
  };
}

export default async function McpServersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser("mcp:manage");
  const servers = await mcpServers.list();
  return (
    <>
      <PageHeader
        title="MCP servers"
        description="The tool servers agents may use, by name. stdio commands must be on the operator's allowlist (ZAP_MCP_STDIO_ALLOWLIST); secrets are stored encrypted and never shown again."
      />
      <McpRegistry servers={servers} prefill={prefillFrom(await searchParams)} />
    </>
  );
}
