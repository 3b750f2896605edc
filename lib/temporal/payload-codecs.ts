// The payload codecs every Temporal client and worker of Zap Studio uses, in
// order: the claim check (large payloads to the database by reference), then,
// when ZAP_PAYLOAD_KEY is set, encryption. Encode runs them in this order and
// decode in reverse, so all processes must build the same list.
import type { PayloadCodec } from "@temporalio/common";
import type { AppConfig } from "../config/env";
import type { Db } from "../db/prisma";
import { deriveKey } from "../crypto/keys";
import { createClaimCheckCodec } from "./claim-check-codec";
import { createEncryptionCodec } from "./encryption-codec";

/** The encryption codec for `config`, or null when ZAP_PAYLOAD_KEY is not set. */
export function encryptionCodecFor(config: Pick<AppConfig, "payloadKey">): PayloadCodec | null {
  return config.payloadKey ? createEncryptionCodec(deriveKey(config.payloadKey, "temporal-payloads")) : null;
}

/** Claim check, then encryption when configured. */
export function zapPayloadCodecs(db: Db, config: Pick<AppConfig, "payloadKey" | "temporal">): PayloadCodec[] {
  const encryption = encryptionCodecFor(config);
  return [createClaimCheckCodec({ db, thresholdBytes: config.temporal.payloadOffloadBytes }), ...(encryption ? [encryption] : [])];
}
