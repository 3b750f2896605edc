// The `npm start` step of production mode: no demo account (published
// password) may be able to sign in. The web server checks again at boot
// (instrumentation.ts), for deployments started without `npm start`.
import path from "node:path";
import type { AppConfig } from "../../lib/config/env";
import { PRODUCTION_FIX_COMMAND } from "../../lib/auth/demo-users";
import { bin, PROJECT_ROOT, run } from "./run";
import { StepError } from "./steps";

/** Resolves with a summary when no demo account is enabled; otherwise a StepError naming them and the command that fixes it. */
export async function checkProductionAccounts(config: AppConfig): Promise<string> {
  const result = await run(bin("tsx"), [path.join(PROJECT_ROOT, "scripts/production-check.ts")], { env: { ...process.env, DATABASE_URL: config.databaseUrl } });
  const emails = result.stdout.trim().split("\n").pop() ?? "";
  if (result.code === 0) return "no demo account is enabled";
  if (result.code === 2) {
    throw new StepError(
      `ZAP_MODE=production refuses to start while demo accounts are enabled (${emails})`,
      `run \`${PRODUCTION_FIX_COMMAND}\` (creates your admin, prints a one-time password, disables every demo account), then start again`,
    );
  }
  throw new StepError("could not check the accounts for production mode", "see the output below", `${result.stdout}\n${result.stderr}`.trim());
}
