// The format of ZAP_ENCRYPTION_KEYS, parsed with the rest of the environment;
// lib/crypto/keys.ts derives each purpose's keys from it.

/** One key of ZAP_ENCRYPTION_KEYS: its public id and its 32 secret bytes. */
export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const ENCRYPTION_KEY_BYTES = 32;

/**
 * Parses ZAP_ENCRYPTION_KEYS: comma-separated `id:key` entries, the id 1-32 letters, digits, _ or -, the key
 * the base64 (or base64url) of exactly 32 bytes, e.g. from `openssl rand -base64 32`. Ids must be unique.
 * Never puts a key in its message.
 */
export function parseEncryptionKeys(text: string): { ok: true; keys: EncryptionKey[] } | { ok: false; message: string } {
  const keys: EncryptionKey[] = [];
  const entries = text.split(",").map((e) => e.trim()).filter(Boolean);
  if (entries.length === 0) return { ok: false, message: "expected id:base64key entries separated by commas" };
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(":");
    const id = colon < 0 ? "" : entry.slice(0, colon).trim();
    const encoded = colon < 0 ? "" : entry.slice(colon + 1).trim();
    if (!KEY_ID_PATTERN.test(id)) return { ok: false, message: `entry ${index + 1} is not id:base64key (the id: 1-32 letters, digits, _ or -)` };
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded)) return { ok: false, message: `key "${id}" is not base64` };
    const key = Buffer.from(encoded.replaceAll("-", "+").replaceAll("_", "/"), "base64");
    if (key.length !== ENCRYPTION_KEY_BYTES) return { ok: false, message: `key "${id}" is ${key.length} bytes; expected ${ENCRYPTION_KEY_BYTES} (e.g. openssl rand -base64 32)` };
    if (keys.some((k) => k.id === id)) return { ok: false, message: `key id "${id}" appears twice` };
    keys.push({ id, key });
  }
  return { ok: true, keys };
}
