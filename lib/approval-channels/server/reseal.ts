// No "server-only": scripts/reseal-secrets.ts (plain Node) loads it.
// Re-sealing the approval channels' stored secrets (SMTP password, Slack signing
// secret and bot token) with the current key (the first of ZAP_ENCRYPTION_KEYS),
// the step of a key rotation between adding the new key in front and dropping
// the old one (scripts/reseal-secrets.ts, beside MCP and webhook secrets).
// Idempotent: a secret already sealed with the current key is left alone.
import type { Db } from "../../db/prisma";
import { keyRing, type KeyRingConfig } from "../../crypto/keys";
import { sealedKeyId, sealWithRing, unsealWithRing } from "../../crypto/seal";
import { ResealError, type ResealReport } from "../../mcp/reseal";
import { SECRET_FIELDS } from "../schemas";
import { SETTINGS_ID } from "./effective";

export async function resealApprovalChannelSecrets(db: Db, config: KeyRingConfig): Promise<Omit<ResealReport, "withoutSecrets">> {
  const ring = keyRing(config, "approval-channel-secrets");
  if (!ring.current) throw new ResealError("ZAP_ENCRYPTION_KEYS is not set: re-sealing seals with its first key (id:base64key, 32 random bytes, e.g. `main:$(openssl rand -base64 32)`)");
  const report = { keyId: ring.current.id, resealed: 0, current: 0 };
  const row = await db.approvalChannelSettings.findUnique({ where: { id: SETTINGS_ID } });
  if (!row) return report;
  for (const field of SECRET_FIELDS) {
    const sealed = row[field];
    if (!sealed) continue;
    if (sealedKeyId(sealed) === ring.current.id) {
      report.current++;
      continue;
    }
    let plaintext: string;
    try {
      plaintext = unsealWithRing(ring, "approval-channel-secrets", sealed);
    } catch (error) {
      throw new ResealError(`approval channels' ${field}: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Only if the row still holds what was read: an admin's new value meanwhile wins.
    const { count } = await db.approvalChannelSettings.updateMany({ where: { id: SETTINGS_ID, [field]: sealed }, data: { [field]: sealWithRing(ring, "approval-channel-secrets", plaintext) } });
    if (count === 1) report.resealed++;
    else report.current++;
  }
  return report;
}
