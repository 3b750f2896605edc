// Keys for the server's own cryptography, each derived (HKDF-SHA256) from one
// secret with its own purpose label, so no key serves two purposes and none is
// ever stored. Every process (web servers, workers, scripts) must share them.
//
// Two sources of material:
// - ZAP_ENCRYPTION_KEYS, a key ring of named keys (`id:base64key,…`, each key
//   32 random bytes): new ciphertext is made with the first, and any of them
//   opens what it made (each ciphertext names its key's id). Rotating is adding
//   a new key in front, re-sealing (scripts/reseal-secrets.ts), then dropping
//   the old one. Used by sealed MCP secrets and the payload codec.
// - The legacy single material, ZAP_ENCRYPTION_KEY else AUTH_SECRET (and
//   ZAP_PAYLOAD_KEY for payloads): still signs approval decisions and hashes
//   API keys (lib/auth/server/api-keys.ts: changing it invalidates every API
//   key), and still opens ciphertext made before the ring existed (it carries no id).
import { hkdfSync } from "node:crypto";
import type { AppConfig } from "../config/env";
import type { EncryptionKey } from "../config/encryption-keys";

export type { EncryptionKey };

export type KeyPurpose = "mcp-secrets" | "approval-decisions" | "temporal-payloads" | "api-keys" | "webhook-secrets" | "approval-channel-secrets";

/** A purpose's keys: `current` makes new ciphertext (null: none configured); `byId` opens it; `legacy` opens id-less ciphertext. */
export interface KeyRing {
  current: EncryptionKey | null;
  byId: ReadonlyMap<string, Buffer>;
  legacy: Buffer | null;
}

export class MissingKeyError extends Error {
  override name = "MissingKeyError";
  constructor(purpose: KeyPurpose) {
    const ring = purpose === "approval-decisions" || purpose === "api-keys" ? "" : "ZAP_ENCRYPTION_KEYS, or ";
    super(`No key material for ${purpose}: set ${ring}ZAP_ENCRYPTION_KEY (or AUTH_SECRET) to the same value in every web server and worker`);
  }
}

/** Ciphertext names a key id the configuration does not hold. */
export class UnknownKeyIdError extends Error {
  override name = "UnknownKeyIdError";
  constructor(
    readonly keyId: string,
    what: string,
    known: Iterable<string>,
  ) {
    const ids = [...known];
    super(`${what} was encrypted with key id "${keyId}", which is not in ZAP_ENCRYPTION_KEYS (${ids.length ? `it holds ${ids.map((i) => `"${i}"`).join(", ")}` : "it is not set"}): add that key back (after the current one) in every web server and worker`);
  }
}

/** A 32-byte key for `purpose` derived from `material` (a secret text, or a ring key's bytes). */
export function deriveKey(material: string | Buffer, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", material, "zap-studio", purpose, 32));
}

/** The key for `purpose` from the legacy material; throws MissingKeyError when none is configured. */
export function configuredKey(config: Pick<AppConfig, "keyMaterial">, purpose: KeyPurpose): Buffer {
  if (!config.keyMaterial) throw new MissingKeyError(purpose);
  return deriveKey(config.keyMaterial, purpose);
}

/** The configuration a key ring is built from (encryptionKeys optional: configurations without a ring). */
export type KeyRingConfig = Pick<AppConfig, "keyMaterial"> & Partial<Pick<AppConfig, "encryptionKeys">>;

/** The ring of `purpose`: ZAP_ENCRYPTION_KEYS derived for it, and the legacy key (from `legacyMaterial`, default the config's key material). */
export function keyRing(config: KeyRingConfig, purpose: KeyPurpose, legacyMaterial: string | null = config.keyMaterial): KeyRing {
  const derived = (config.encryptionKeys ?? []).map(({ id, key }) => ({ id, key: deriveKey(key, purpose) }));
  return { current: derived[0] ?? null, byId: new Map(derived.map((k) => [k.id, k.key])), legacy: legacyMaterial ? deriveKey(legacyMaterial, purpose) : null };
}
