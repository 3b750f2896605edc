// Re-sealing stored webhook signing secrets with the current key (the first of
// ZAP_ENCRYPTION_KEYS), the step of a key rotation between adding the new key
// in front and dropping the old one (scripts/reseal-secrets.ts, beside the MCP
// secrets). Idempotent: a secret already sealed with the current key is left alone.
import type { Db } from "../db/prisma";
import { keyRing, type KeyRingConfig } from "../crypto/keys";
import { sealedKeyId, sealWithRing, unsealWithRing } from "../crypto/seal";
import { ResealError, type ResealReport } from "../mcp/reseal";

export async function resealWebhookSecrets(db: Db, config: KeyRingConfig): Promise<Omit<ResealReport, "withoutSecrets">> {
  const ring = keyRing(config, "webhook-secrets");
  if (!ring.current) throw new ResealError("ZAP_ENCRYPTION_KEYS is not set: re-sealing seals with its first key (id:base64key, 32 random bytes, e.g. `main:$(openssl rand -base64 32)`)");
  const report = { keyId: ring.current.id, resealed: 0, current: 0 };
  const rows = await db.webhookEndpoint.findMany({ select: { id: true, name: true, secret: true }, orderBy: { id: "asc" } });
  for (const row of rows) {
    if (sealedKeyId(row.secret) === ring.current.id) {
      report.current++;
      continue;
    }
    let plaintext: string;
    try {
      plaintext = unsealWithRing(ring, "webhook-secrets", row.secret);
    } catch (error) {
      throw new ResealError(`webhook endpoint "${row.name}" (${row.id}): ${error instanceof Error ? error.message : String(error)}`);
    }
    // Only if the row still holds what was read: a concurrent rotation (already sealed with the current key) wins.
    const { count } = await db.webhookEndpoint.updateMany({ where: { id: row.id, secret: row.secret }, data: { secret: sealWithRing(ring, "webhook-secrets", plaintext) } });
    if (count === 1) report.resealed++;
    else report.current++;
  }
  return report;
}
