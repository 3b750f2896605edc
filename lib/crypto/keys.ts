// Keys for the server's own cryptography, each derived (HKDF-SHA256) from one
// secret with its own purpose label, so no key serves two purposes and none is
// ever stored. The material is ZAP_ENCRYPTION_KEY, else AUTH_SECRET: every
// process (web servers, workers, scripts) must share it.
import { hkdfSync } from "node:crypto";
import type { AppConfig } from "../config/env";

export type KeyPurpose = "mcp-secrets" | "approval-decisions" | "temporal-payloads";

export class MissingKeyError extends Error {
  override name = "MissingKeyError";
  constructor(purpose: KeyPurpose) {
    super(`No key material for ${purpose}: set ZAP_ENCRYPTION_KEY (or AUTH_SECRET) to the same value in every web server and worker`);
  }
}

/** A 32-byte key for `purpose` derived from `material`. */
export function deriveKey(material: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", material, "zap-studio", purpose, 32));
}

/** The key for `purpose` from the configuration; throws MissingKeyError when no material is configured. */
export function configuredKey(config: Pick<AppConfig, "keyMaterial">, purpose: KeyPurpose): Buffer {
  if (!config.keyMaterial) throw new MissingKeyError(purpose);
  return deriveKey(config.keyMaterial, purpose);
}
