// `npx tsx scripts/reseal-secrets.ts`: re-seals every stored secret (MCP
// servers' environment values and headers, webhook signing secrets, approval channel secrets) with the first key of
// ZAP_ENCRYPTION_KEYS. Rotating a key: put the new key first and keep the old
// one after it (ZAP_ENCRYPTION_KEYS=new:…,old:…) in every web server and
// worker, run this, then drop the old key. Idempotent (a secret already sealed
// with the first key is left alone); prints the counts; exits 1, naming the
// server, when a secret opens with no configured key.
import { loadDotenv } from "./lib/dotenv";
import { parseEnv } from "../lib/config/env";
import { createDb } from "../lib/db/prisma";
import { resealMcpSecrets } from "../lib/mcp/reseal";
import { resealWebhookSecrets } from "../lib/webhooks/reseal";
import { resealApprovalChannelSecrets } from "../lib/approval-channels/server/reseal";

loadDotenv();
const config = parseEnv();
const db = createDb(config.databaseUrl);
try {
  const report = await resealMcpSecrets(db, config);
  console.log(`✓ MCP secrets sealed with key "${report.keyId}": ${report.resealed} re-sealed, ${report.current} already current, ${report.withoutSecrets} server(s) without secrets`);
  const hooks = await resealWebhookSecrets(db, config);
  console.log(`✓ webhook secrets sealed with key "${hooks.keyId}": ${hooks.resealed} re-sealed, ${hooks.current} already current`);
  const channels = await resealApprovalChannelSecrets(db, config);
  console.log(`✓ approval channel secrets sealed with key "${channels.keyId}": ${channels.resealed} re-sealed, ${channels.current} already current`);
} catch (error) {
  console.error(`✗ ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
