import type { Db } from "../db/prisma";
import { writeTransaction } from "../db/transactions";
import { appendAuditInTransaction } from "../audit/write";
import { DEMO_USERS } from "../auth/demo-users";
import { hashPassword } from "../auth/passwords";
import { DEMO_AGENT_GRAPHS } from "../agents/demo";
import { saveAgentVersion } from "../agents/repository";
import { DEMO_ACCOUNTS } from "../demo-bank/accounts";
import { DEMO_MCP_SERVERS } from "../mcp/demo";
import { ensureWorkspacePolicy } from "../policy/store";
import { SEED_WORKSPACE_POLICY } from "../policy/schemas";

export interface SeedReport {
  seeded: boolean;
  users: number;
  agents: number;
}

/** Demo agents, ledger accounts and the demo MCP server, each only when its table is empty. */
async function seedDemoContent(db: Db): Promise<number> {
  await writeTransaction(db, async (tx) => {
    if ((await tx.ledgerAccount.count()) > 0) return;
    await tx.ledgerAccount.createMany({ data: DEMO_ACCOUNTS.map((a) => ({ id: a.id, name: a.name, balanceCents: a.balanceCents })) });
  });
  // Before the agents: the demo graphs name this server, and saves check the names are registered.
  await writeTransaction(db, async (tx) => {
    if ((await tx.mcpServer.count()) > 0) return;
    for (const server of DEMO_MCP_SERVERS) {
      await tx.mcpServer.create({
        data: { name: server.name, description: server.description, transport: server.transport, config: JSON.stringify(server.config), allowTools: JSON.stringify(server.allowTools), guardrailTools: JSON.stringify(server.guardrailTools) },
      });
      await appendAuditInTransaction(tx, { actorId: null, action: "mcp_server.created", target: server.name, details: { transport: server.transport, seeded: true } });
    }
  });
  if ((await db.agent.count()) > 0) return 0;
  for (const demo of DEMO_AGENT_GRAPHS) {
    await saveAgentVersion(db, demo.name, demo.graph, { description: demo.description, note: "demo" });
  }
  return DEMO_AGENT_GRAPHS.length;
}

/**
 * Seeds demo content on an empty database only: a database with any user is
 * left exactly as it is, so restarts never re-seed or overwrite changes.
 */
export async function seedDatabase(db: Db, options: { demo: boolean }): Promise<SeedReport> {
  const agents = options.demo ? await seedDemoContent(db) : 0;
  // The demo MCP server's read-only tools run ungated; an admin's own policy is never overwritten.
  if (options.demo) await ensureWorkspacePolicy(db, SEED_WORKSPACE_POLICY);
  const existing = await db.user.count();
  if (existing > 0 || !options.demo) return { seeded: false, users: existing, agents };
  const rows = await Promise.all(
    DEMO_USERS.map(async (u) => ({ email: u.email, name: u.name, role: u.role, isDemo: true, passwordHash: await hashPassword(u.password) })),
  );
  // Checked again inside the transaction: another process may have seeded since the count above.
  const seeded = await writeTransaction(db, async (tx) => {
    const users = await tx.user.count();
    if (users > 0) return { seeded: false, users };
    for (const data of rows) await tx.user.create({ data });
    await appendAuditInTransaction(tx, { actorId: null, action: "seed.demo_users", details: { count: rows.length } });
    return { seeded: true, users: rows.length };
  });
  return { ...seeded, agents };
}
