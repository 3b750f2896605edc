// A version saved before MCP servers moved to the registry may hold secrets an
// earlier builder typed into an inline server. Every reader — the designer, the
// export a viewer downloads — gets them blanked, while the version still opens.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { freshSqlite, type TestDatabase } from "../../../scripts/test-support/databases";
import { exportGraphJson } from "../graph-json";
import { getVersion, REDACTED } from "./store";

const TOKEN = "tok-legacy-9f1c2e";
const PASSWORD = "hunter2-legacy";
let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await freshSqlite();
  await applyMigrations(database.url);
  db = createDb(database.url);
  const agent = await db.agent.create({ data: { name: "legacy" } });
  const graph = {
    entryAgent: "main",
    agents: [
      {
        name: "main",
        mcpServers: [
          { name: "crm", transport: { type: "stdio", command: "node", args: ["crm.js"], env: { CRM_TOKEN: TOKEN } } },
          { name: "docs", transport: { type: "http", url: `https://bot:${PASSWORD}@mcp.example.com/v1?api_key=${TOKEN}` } },
        ],
      },
    ],
  };
  await db.agentVersion.create({ data: { agentId: agent.id, version: 1, graph: JSON.stringify(graph) } });
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

describe("a legacy version with inline secrets", () => {
  it("opens, but neither the designer's copy nor the export holds the secrets", async () => {
    const stored = await getVersion(db, "legacy", 1);
    const servers = stored.graph.agents[0]?.mcpServers ?? [];
    expect(servers.map((s) => s.name)).toEqual(["crm", "docs"]);
    expect(servers[0]?.transport).toMatchObject({ type: "stdio", command: "node", env: { CRM_TOKEN: REDACTED } });
    expect(servers[1]?.transport).toEqual({ type: "http", url: "https://mcp.example.com/v1" });
    const exported = exportGraphJson("legacy", 1, stored.graph);
    for (const text of [JSON.stringify(stored), exported]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(PASSWORD);
    }
  });
});
