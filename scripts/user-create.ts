// `npm run user:create -- --admin you@example.com` (or `--role <role> email`):
// creates an account and prints its one-time password once (the user chooses
// their own at first sign-in). `--disable-demo` also disables every demo
// account, which production mode requires. Audited with no actor (the system).
// Runs under the react-server condition: it uses the same server module as the
// admin page and the users API (lib/users/server/users.ts).
import { parseArgs } from "node:util";
import { loadDotenv } from "./lib/dotenv";
import { parseEnv } from "../lib/config/env";
import { createDb } from "../lib/db/prisma";
import { ROLES, isRole } from "../lib/access/roles";
import { AppError } from "../lib/errors";
import { createUser, setUserDisabled } from "../lib/users/server/users";
import { enabledDemoAccounts } from "../lib/auth/production-mode";

const USAGE = `usage: npm run user:create -- (--admin | --role <${ROLES.join("|")}>) [--name "Full Name"] [--disable-demo] <email>`;

function fail(message: string): never {
  console.error(`✗ ${message}`);
  process.exit(1);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { admin: { type: "boolean" }, role: { type: "string" }, name: { type: "string" }, "disable-demo": { type: "boolean" } },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();

const email = positionals[0];
const role = values.admin ? "admin" : values.role;
if (!email || positionals.length > 1 || !role || (values.admin && values.role)) fail(USAGE);
if (!isRole(role)) fail(`--role must be one of ${ROLES.join(", ")}`);

loadDotenv();
const config = parseEnv();
const db = createDb(config.databaseUrl);
try {
  const issued = await createUser(null, { email, name: values.name ?? email.split("@")[0] ?? email, role, kind: "password" }, db);
  console.log(`✓ created ${issued.user.email} (${issued.user.role})`);
  console.log(`  one-time password (shown once; they choose their own at first sign-in): ${issued.oneTimePassword}`);
  if (values["disable-demo"]) {
    const demo = await enabledDemoAccounts(db);
    for (const account of await db.user.findMany({ where: { email: { in: demo.map((d) => d.email) } }, select: { id: true } })) {
      await setUserDisabled(null, { userId: account.id, disabled: true }, db);
    }
    console.log(`✓ disabled ${demo.length} demo account(s)${demo.length ? `: ${demo.map((d) => d.email).join(", ")}` : ""}`);
  }
} catch (error) {
  if (error instanceof AppError) fail(error.userMessage);
  throw error;
} finally {
  await db.$disconnect();
}
