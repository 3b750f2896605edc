// Production mode (ZAP_MODE=production) refuses to start while a demo account
// with a published password can sign in. Used by `npm start` (a step before
// serving), by the web server at boot (instrumentation.ts) and by the sign-in
// page (which lists the demo sign-ins in demo mode only). No "server-only":
// scripts run it under tsx.
import type { Db } from "../db/prisma";
import { DEMO_USERS, PRODUCTION_FIX_COMMAND } from "./demo-users";
import type { Role } from "../access/roles";

/** Enabled demo accounts (seeded with `isDemo`), oldest first. */
export async function enabledDemoAccounts(db: Db): Promise<{ email: string; role: string }[]> {
  return db.user.findMany({ where: { isDemo: true, disabledAt: null }, select: { email: true, role: true }, orderBy: { createdAt: "asc" } });
}

/** For the sign-in page in demo mode: each enabled demo account with its published password. */
export async function enabledDemoSignIns(db: Db): Promise<{ email: string; password: string; role: Role }[]> {
  const enabled = new Set((await enabledDemoAccounts(db)).map((a) => a.email));
  return DEMO_USERS.filter((d) => enabled.has(d.email)).map(({ email, password, role }) => ({ email, password, role }));
}

/** Why production mode must not start (one line saying how to fix it), or null when it may. */
export async function productionStartRefusal(db: Db, mode: "demo" | "production"): Promise<string | null> {
  if (mode !== "production") return null;
  const demo = await enabledDemoAccounts(db);
  if (demo.length === 0) return null;
  return `ZAP_MODE=production refuses to start while demo accounts are enabled (${demo.map((d) => d.email).join(", ")}): run \`${PRODUCTION_FIX_COMMAND}\` (creates your admin, prints a one-time password, disables every demo account), then start again`;
}
