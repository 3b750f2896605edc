// `npm run api-key -- create --owner <email> --name <name> --role <role> [--service] [--expires-in-days N]`
// `npm run api-key -- list [--owner <email>]`
// `npm run api-key -- revoke <id>`
// API keys for an operator on the server host (issue 23 §1), straight against
// the configured database with the same module as the web (lib/api-keys/server/
// api-keys.ts) and the same rules applied to the owner. Each change is audited
// with no actor (the audit page shows "system") and `via: "cli"` plus the
// operator's OS account and host in its details. Run it with the server's
// environment: the key's hash uses ZAP_ENCRYPTION_KEY, else AUTH_SECRET, else
// the secret npm start keeps in the data folder — the same one the server
// checks keys with. Runs under the react-server condition, as user:create does.
import os from "node:os";
import { parseArgs } from "node:util";
import { loadDotenv } from "./lib/dotenv";
import { ensureAuthSecret } from "./lib/auth-secret";
import { parseEnv } from "../lib/config/env";
import { createDb } from "../lib/db/prisma";
import { ROLES, isRole } from "../lib/access/roles";
import { AppError } from "../lib/errors";
import type { ApiKeySummary } from "../lib/api-keys/schemas";
import { createApiKeyAsOperator, listApiKeysAsOperator, revokeApiKeyAsOperator } from "../lib/api-keys/server/api-keys";

const USAGE = `usage:
  npm run api-key -- create --owner <email> --name <name> --role <${ROLES.join("|")}> [--service] [--expires-in-days N]
  npm run api-key -- list [--owner <email>]
  npm run api-key -- revoke <id>`;

function fail(message: string, code = 1): never {
  console.error(`✗ ${message}`);
  process.exit(code);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: { owner: { type: "string" }, name: { type: "string" }, role: { type: "string" }, service: { type: "boolean" }, "expires-in-days": { type: "string" } },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`, 2);
  }
})();

function row(key: ApiKeySummary): string {
  const used = key.lastUsedAt ? `last used ${key.lastUsedAt}` : "never used";
  const expires = key.expiresAt ? `expires ${key.expiresAt}` : "no expiry";
  return `${key.id}  ${key.prefix}…  ${key.status.padEnd(7)}  ${key.kind.padEnd(8)}  ${key.role.padEnd(8)}  ${key.owner.email}  "${key.name}"  ${expires}, ${used}`;
}

const [command, ...rest] = positionals;
loadDotenv();
const config = parseEnv();
// The server hashes keys under ZAP_ENCRYPTION_KEY, else AUTH_SECRET, which npm start reads from the data folder.
if (!config.keyMaterial) process.env.AUTH_SECRET = ensureAuthSecret(config.dataDir, undefined).secret;
const operator = `${os.userInfo().username}@${os.hostname()}`;
const db = createDb(config.databaseUrl);
try {
  if (command === "create") {
    if (rest.length || !values.owner || !values.name || !values.role) fail(`create needs --owner, --name and --role\n${USAGE}`, 2);
    if (!isRole(values.role)) fail(`--role must be one of ${ROLES.join(", ")}`, 2);
    const days = values["expires-in-days"];
    if (days !== undefined && !/^\d+$/.test(days)) fail("--expires-in-days must be a whole number of days", 2);
    const created = await createApiKeyAsOperator(operator, values.owner, {
      name: values.name,
      role: values.role,
      kind: values.service ? "service" : "personal",
      ...(days !== undefined ? { expiresInDays: Number(days) } : {}),
    }, db);
    console.log(`✓ created ${row(created.key)}`);
    console.log("  the key (shown once; give it to the program as ZAP_API_KEY or in a file, never on a command line):");
    console.log(created.token);
  } else if (command === "list") {
    if (rest.length) fail(USAGE, 2);
    const keys = await listApiKeysAsOperator({ ownerEmail: values.owner }, db);
    console.log(keys.length ? keys.map(row).join("\n") : `no keys${values.owner ? ` for ${values.owner}` : ""}`);
  } else if (command === "revoke") {
    const [id] = rest;
    if (!id || rest.length > 1) fail(USAGE, 2);
    const key = await revokeApiKeyAsOperator(operator, { id }, db);
    console.log(`✓ revoked ${row(key)}`);
  } else {
    fail(USAGE, 2);
  }
} catch (error) {
  if (error instanceof AppError) fail(`${error.userMessage}${error.issues.length ? `: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : ""}`);
  throw error;
} finally {
  await db.$disconnect();
}
