// Sealed values: AES-256-GCM with a random 96-bit nonce, written as
// `v1.<base64url(nonce | tag | ciphertext)>`. Tampering or the wrong key fails
// to open rather than yielding garbage.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const PREFIX = "v1.";

export class SealError extends Error {
  override name = "SealError";
}

export function seal(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]).toString("base64url");
}

export function unseal(key: Buffer, sealed: string): string {
  if (!sealed.startsWith(PREFIX)) throw new SealError("not a sealed value");
  const raw = Buffer.from(sealed.slice(PREFIX.length), "base64url");
  if (raw.length < 28) throw new SealError("sealed value is truncated");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError("sealed value does not open with this key (wrong key or tampered)");
  }
}
