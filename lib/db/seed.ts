import type { Db } from "./prisma";
import { DEMO_USERS } from "../auth/demo-users";
import { hashPassword } from "../auth/passwords";

export interface SeedReport {
  seeded: boolean;
  users: number;
}

/**
 * Seeds demo content on an empty database only: a database with any user is
 * left exactly as it is, so restarts never re-seed or overwrite changes.
 */
export async function seedDatabase(db: Db, options: { demo: boolean }): Promise<SeedReport> {
  const existing = await db.user.count();
  if (existing > 0 || !options.demo) return { seeded: false, users: existing };
  const rows = await Promise.all(
    DEMO_USERS.map(async (u) => ({ email: u.email, name: u.name, role: u.role, passwordHash: await hashPassword(u.password) })),
  );
  await db.$transaction([
    ...rows.map((data) => db.user.create({ data })),
    db.auditEvent.create({ data: { action: "seed.demo_users", details: JSON.stringify({ count: rows.length }) } }),
  ]);
  return { seeded: true, users: rows.length };
}
