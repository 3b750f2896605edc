// The payload codecs every Temporal client and worker of Zap Studio uses, in
// order: the claim check (large payloads to the database by reference), then,
// when ZAP_ENCRYPTION_KEYS or ZAP_PAYLOAD_KEY is set, encryption. Encode runs
// them in this order and decode in reverse, so all processes must build the
// same list. In production mode (ZAP_MODE=production) encryption is required:
// building the codecs without a key fails (so does start-up), and an
// unencrypted payload is refused rather than decoded. Claim-check references
// are encrypted like any payload (the claim check runs first), so none needs
// to travel in clear.
import type { PayloadCodec } from "@temporalio/common";
import type { AppConfig } from "../config/env";
import type { Db } from "../db/prisma";
import { deriveKey } from "../crypto/keys";
import { createClaimCheckCodec } from "./claim-check-codec";
import { createEncryptionCodec, payloadKeyId } from "./encryption-codec";

/** What the payload codecs read of the configuration (encryptionKeys and mode may be absent: no ring, not production). */
export type PayloadCodecConfig = Pick<AppConfig, "payloadKey"> & Partial<Pick<AppConfig, "encryptionKeys" | "mode">>;

export class PayloadCodecRequiredError extends Error {
  override name = "PayloadCodecRequiredError";
  constructor() {
    super(
      "ZAP_MODE=production requires the encrypting payload codec: set ZAP_ENCRYPTION_KEYS (id:base64key, 32 random bytes, e.g. `main:$(openssl rand -base64 32)`) to the same value in every web server and worker",
    );
  }
}

/** Why this process must not start (production mode without a payload key), or null when it may. */
export function payloadCodecStartRefusal(config: PayloadCodecConfig): string | null {
  return config.mode === "production" && !config.payloadKey && !config.encryptionKeys?.length ? new PayloadCodecRequiredError().message : null;
}

/** The encryption codec for `config`, or null when no key is set (outside production mode); throws PayloadCodecRequiredError in production mode without one. */
export function encryptionCodecFor(config: PayloadCodecConfig): PayloadCodec | null {
  const ring = (config.encryptionKeys ?? []).map(({ id, key }) => ({ id, key: deriveKey(key, "temporal-payloads") }));
  const legacy = config.payloadKey ? deriveKey(config.payloadKey, "temporal-payloads") : null;
  if (ring.length === 0 && !legacy) {
    if (config.mode === "production") throw new PayloadCodecRequiredError();
    return null;
  }
  // The legacy key is named by its fingerprint, as payloads written with it are.
  const decrypt = new Map(legacy ? [[payloadKeyId(legacy), legacy] as const] : []);
  for (const { id, key } of ring) decrypt.set(id, key);
  const encrypt = ring[0] ?? { id: payloadKeyId(legacy!), key: legacy! };
  return createEncryptionCodec({ encrypt, decrypt }, { refusePlaintext: config.mode === "production" });
}

/** Claim check, then encryption when configured (always, in production mode). */
export function zapPayloadCodecs(db: Db, config: PayloadCodecConfig & Pick<AppConfig, "temporal">): PayloadCodec[] {
  const encryption = encryptionCodecFor(config);
  return [createClaimCheckCodec({ db, thresholdBytes: config.temporal.payloadOffloadBytes }), ...(encryption ? [encryption] : [])];
}
