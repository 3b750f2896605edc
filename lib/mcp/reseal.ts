// Re-sealing stored MCP secrets with the current key (the first of
// ZAP_ENCRYPTION_KEYS), the step of a key rotation between adding the new key
// in front and dropping the old one: afterwards no stored secret needs the old
// key (nor the legacy ZAP_ENCRYPTION_KEY / AUTH_SECRET, for secrets sealed
// before the ring). Idempotent: a secret already sealed with the current key is
// left alone. Run by scripts/reseal-secrets.ts.
import type { Db } from "../db/prisma";
import { keyRing, type KeyRingConfig } from "../crypto/keys";
import { sealedKeyId, sealWithRing, unsealWithRing } from "../crypto/seal";

export interface ResealReport {
  /** The id of the key every secret is now sealed with. */
  keyId: string;
  /** Rows re-sealed now, rows already sealed with the current key, rows with no secret. */
  resealed: number;
  current: number;
  withoutSecrets: number;
}

export class ResealError extends Error {
  override name = "ResealError";
}

export async function resealMcpSecrets(db: Db, config: KeyRingConfig): Promise<ResealReport> {
  const ring = keyRing(config, "mcp-secrets");
  if (!ring.current) throw new ResealError("ZAP_ENCRYPTION_KEYS is not set: re-sealing seals with its first key (id:base64key, 32 random bytes, e.g. `main:$(openssl rand -base64 32)`)");
  const report: ResealReport = { keyId: ring.current.id, resealed: 0, current: 0, withoutSecrets: 0 };
  const rows = await db.mcpServer.findMany({ select: { name: true, secrets: true }, orderBy: { name: "asc" } });
  for (const row of rows) {
    if (!row.secrets) {
      report.withoutSecrets++;
      continue;
    }
    if (sealedKeyId(row.secrets) === ring.current.id) {
      report.current++;
      continue;
    }
    let plaintext: string;
    try {
      plaintext = unsealWithRing(ring, "mcp-secrets", row.secrets);
    } catch (error) {
      throw new ResealError(`MCP server "${row.name}": ${error instanceof Error ? error.message : String(error)}`);
    }
    // Only if the row still holds what was read: an admin's concurrent save (already sealed with the current key) wins.
    const { count } = await db.mcpServer.updateMany({ where: { name: row.name, secrets: row.secrets }, data: { secrets: sealWithRing(ring, "mcp-secrets", plaintext) } });
    if (count === 1) report.resealed++;
    else report.current++;
  }
  return report;
}
