import type { Role } from "../access/roles";

/** One demo account per role, created on an empty database (see lib/seed/seed.ts). */
export const DEMO_USERS: readonly { email: string; name: string; role: Role; password: string }[] = [
  { email: "viewer@zap.local", name: "Vera Viewer", role: "viewer", password: "viewer-demo" },
  { email: "builder@zap.local", name: "Bo Builder", role: "builder", password: "builder-demo" },
  { email: "approver@zap.local", name: "Ada Approver", role: "approver", password: "approver-demo" },
  { email: "admin@zap.local", name: "Alex Admin", role: "admin", password: "admin-demo" },
];

/** What production mode asks the operator to run: an admin of their own, and every demo account disabled. */
export const PRODUCTION_FIX_COMMAND = "npm run user:create -- --admin you@example.com --disable-demo";
