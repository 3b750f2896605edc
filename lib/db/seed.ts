import type { Db } from "./prisma";
import { DEMO_USERS } from "../auth/demo-users";
import { hashPassword } from "../auth/passwords";
import { DEMO_AGENT_GRAPHS } from "../agents/demo";
import { saveAgentVersion } from "../agents/repository";
import { DEMO_ACCOUNTS } from "../ledger/demo-accounts";

export interface SeedReport {
  seeded: boolean;
  users: number;
  agents: number;
}

/** Demo agents and ledger accounts, each only when its table is empty. */
async function seedDemoContent(db: Db): Promise<number> {
  if ((await db.ledgerAccount.count()) === 0) {
    await db.ledgerAccount.createMany({ data: DEMO_ACCOUNTS.map((a) => ({ id: a.id, name: a.name, balanceCents: a.balanceCents })) });
  }
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
  const existing = await db.user.count();
  if (existing > 0 || !options.demo) return { seeded: false, users: existing, agents };
  const rows = await Promise.all(
    DEMO_USERS.map(async (u) => ({ email: u.email, name: u.name, role: u.role, passwordHash: await hashPassword(u.password) })),
  );
  await db.$transaction([
    ...rows.map((data) => db.user.create({ data })),
    db.auditEvent.create({ data: { action: "seed.demo_users", details: JSON.stringify({ count: rows.length }) } }),
  ]);
  return { seeded: true, users: rows.length, agents };
}
