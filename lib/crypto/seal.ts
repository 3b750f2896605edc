// Sealed values: AES-256-GCM with a random 96-bit nonce. Two forms:
// - `v2.<key id>.<base64url(nonce | tag | ciphertext)>`: sealed with a key of
//   ZAP_ENCRYPTION_KEYS, named by its id (public) so any key of the ring opens it;
// - `v1.<base64url(nonce | tag | ciphertext)>`: sealed before the ring existed,
//   with the legacy key (from ZAP_ENCRYPTION_KEY, else AUTH_SECRET).
// Tampering or the wrong key fails to open rather than yielding garbage.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { KEY_ID_PATTERN } from "../config/encryption-keys";
import { MissingKeyError, UnknownKeyIdError, type KeyPurpose, type KeyRing } from "./keys";

const PREFIX = "v1.";
const RING_PREFIX = "v2.";

export class SealError extends Error {
  override name = "SealError";
}

function encrypt(key: Buffer, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]).toString("base64url");
}

function decrypt(key: Buffer, body: string): string {
  const raw = Buffer.from(body, "base64url");
  if (raw.length < 28) throw new SealError("sealed value is truncated");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError("sealed value does not open with this key (wrong key or tampered)");
  }
}

/** Seals with one key, in the legacy id-less form (`v1.`). */
export function seal(key: Buffer, plaintext: string): string {
  return PREFIX + encrypt(key, plaintext);
}

/** Opens a legacy id-less sealed value (`v1.`) with one key. */
export function unseal(key: Buffer, sealed: string): string {
  if (!sealed.startsWith(PREFIX)) throw new SealError("not a sealed value");
  return decrypt(key, sealed.slice(PREFIX.length));
}

/** The key id a sealed value names; null for a legacy (`v1.`) one. Throws SealError when it is not a sealed value. */
export function sealedKeyId(sealed: string): string | null {
  if (sealed.startsWith(PREFIX)) return null;
  const [version, id, body] = sealed.split(".");
  if (`${version}.` !== RING_PREFIX || !id || !KEY_ID_PATTERN.test(id) || body === undefined) throw new SealError("not a sealed value");
  return id;
}

/** Seals with the ring's current key (`v2.<id>.`), else, with no ring configured, the legacy key (`v1.`). */
export function sealWithRing(ring: KeyRing, purpose: KeyPurpose, plaintext: string): string {
  if (ring.current) return `${RING_PREFIX}${ring.current.id}.${encrypt(ring.current.key, plaintext)}`;
  if (ring.legacy) return seal(ring.legacy, plaintext);
  throw new MissingKeyError(purpose);
}

/** Opens a value sealed with any key of the ring, or a legacy one with the legacy key; an id the ring lacks is named in the error. */
export function unsealWithRing(ring: KeyRing, purpose: KeyPurpose, sealed: string): string {
  const id = sealedKeyId(sealed);
  if (id === null) {
    if (!ring.legacy) throw new SealError(`a ${purpose} value sealed before ZAP_ENCRYPTION_KEYS needs the legacy key: set ZAP_ENCRYPTION_KEY (or AUTH_SECRET) as when it was sealed`);
    return unseal(ring.legacy, sealed);
  }
  const key = ring.byId.get(id);
  if (!key) throw new UnknownKeyIdError(id, `a sealed ${purpose} value`, ring.byId.keys());
  return decrypt(key, sealed.slice(RING_PREFIX.length + id.length + 1));
}
