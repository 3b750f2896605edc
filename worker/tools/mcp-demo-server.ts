// A small MCP server shipped for demos and tests.
//   stdio:  node --import tsx worker/tools/mcp-demo-server.ts
//   HTTP:   node --import tsx worker/tools/mcp-demo-server.ts --http 8931   (Streamable HTTP at /mcp)
import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const ARTICLES = [
  { id: "KB-1", title: "Refund policy", body: "Physical goods can be refunded within 30 days; digital goods within 14 days if unused." },
  { id: "KB-2", title: "Shipping times", body: "Standard shipping takes 3–5 business days; express takes 1–2." },
  { id: "KB-3", title: "Warranty", body: "Electronics carry a two-year warranty covering manufacturing defects." },
];

function text(value: unknown) {
  return { content: [{ type: "text" as const, text: JSON.stringify(value) }] };
}

/** A typed result: the structured content, and the same JSON as text for clients that read only text (as the MCP spec advises). */
function structured<T extends Record<string, unknown>>(value: T) {
  return { ...text(value), structuredContent: value };
}

/** What screen_text trips on (lower case). */
const SCREENED_MARKERS = ["confidential", "internal only"];

const ARTICLE_VIEWS: Record<string, number> = { "KB-1": 1840, "KB-2": 960, "KB-3": 312 };

/**
 * article_stats declares an output schema (tools/list advertises it as JSON
 * Schema). Its own check coerces numbers, as zod-built servers often do, so
 * `legacy_format` sends the view count as text: the SDK's server-side check
 * passes, the advertised schema (an integer) does not, which is the drift a
 * client must catch.
 */
const articleStatsOutput = {
  article_id: z.string(),
  title: z.string(),
  views: z.coerce.number().int().min(0),
  helpful: z.boolean(),
};

export function createDemoMcpServer(): McpServer {
  const server = new McpServer({ name: "zap-demo-kb", version: "1.0.0" });
  server.registerTool(
    "search_kb",
    { description: "Search the support knowledge base", inputSchema: { query: z.string().min(1) } },
    async ({ query }) => {
      const words = query.toLowerCase().split(/\W+/).filter(Boolean);
      return text(ARTICLES.filter((a) => words.some((w) => `${a.title} ${a.body}`.toLowerCase().includes(w))));
    },
  );
  server.registerTool(
    "create_ticket",
    { description: "Open a support ticket", inputSchema: { title: z.string().min(1), priority: z.enum(["low", "normal", "high"]) } },
    async ({ title, priority }) => text({ ticket_id: `T-${createHash("sha256").update(title).digest("hex").slice(0, 6)}`, title, priority, status: "open" }),
  );
  server.registerTool(
    "article_stats",
    {
      description: "How often a knowledge-base article was read (typed result)",
      inputSchema: { article_id: z.string().min(1), legacy_format: z.boolean().optional().describe("Demo: answer in the old format, whose view count breaks the declared schema") },
      outputSchema: articleStatsOutput,
    },
    async ({ article_id, legacy_format }) => {
      const article = ARTICLES.find((a) => a.id === article_id);
      if (!article) return { isError: true, content: [{ type: "text" as const, text: `no article ${article_id}` }] };
      const views = ARTICLE_VIEWS[article.id] ?? 0;
      return structured({ article_id: article.id, title: article.title, views: legacy_format ? String(views) : views, helpful: views > 500 });
    },
  );
  // Offered as a guardrail check by the demo registration (custom check "kb__screen_text"): a policy the
  // knowledge base owns, that Zap Studio does not hard-code.
  server.registerTool(
    "screen_text",
    {
      description: "Guardrail check: trips on text marked confidential or internal-only",
      inputSchema: { text: z.string() },
      outputSchema: { tripped: z.boolean(), reason: z.string() },
    },
    async ({ text: checked }) => {
      const marker = SCREENED_MARKERS.find((m) => checked.toLowerCase().includes(m));
      return structured(marker ? { tripped: true, reason: `the text is marked "${marker}"` } : { tripped: false, reason: "no confidentiality marker" });
    },
  );
  server.registerTool("echo_context", { description: "Return the metadata the caller sent with this call" }, async (extra) =>
    text({ meta: extra._meta ?? null }),
  );
  // For the security suite: which variables the worker passed to this child (names only, never values), and where it started.
  server.registerTool("env_names", { description: "List the names of this server's environment variables and its working directory" }, async () =>
    text({ names: Object.keys(process.env).sort(), home: process.env.HOME ?? null, cwd: process.cwd() }),
  );
  server.registerTool("always_fails", { description: "A tool that always reports an error" }, async () => ({
    isError: true,
    content: [{ type: "text" as const, text: "the knowledge base is read-only today" }],
  }));
  return server;
}

async function main(): Promise<void> {
  const httpFlag = process.argv.indexOf("--http");
  if (httpFlag === -1) {
    await createDemoMcpServer().connect(new StdioServerTransport());
    return;
  }
  const port = Number(process.argv[httpFlag + 1] ?? 8931);
  // Stateless mode: a fresh server and transport per request.
  const http = createServer(async (req, res) => {
    if (!req.url?.startsWith("/mcp")) {
      res.writeHead(404).end();
      return;
    }
    const server = createDemoMcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  http.listen(port, "127.0.0.1", () => console.log(`demo MCP server on http://127.0.0.1:${port}/mcp`));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
