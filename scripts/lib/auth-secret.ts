import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** AUTH_SECRET from the environment, else the one kept in the data folder, generated on first start. */
export function ensureAuthSecret(dataDir: string, fromEnv: string | undefined): { secret: string; source: string } {
  if (fromEnv) return { secret: fromEnv, source: "AUTH_SECRET" };
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) {
    const kept = readFileSync(file, "utf8").trim();
    if (kept.length >= 32) return { secret: kept, source: path.relative(process.cwd(), file) };
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return { secret, source: `generated into ${path.relative(process.cwd(), file)}` };
}
