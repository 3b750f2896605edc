// Encrypting payload codec: with ZAP_PAYLOAD_KEY set, every payload Temporal
// stores (run inputs with graphs and tasks, tool arguments and results, query
// answers) is AES-256-GCM ciphertext, so Temporal's history, its Web UI and
// anyone reading the namespace see no content. Runs after the claim check
// (a stored blob stays in our own database; its reference is encrypted too).
// Keys have ids (ZAP_ENCRYPTION_KEYS): payloads are encrypted with the current
// key and carry its id; any key the process holds decodes. Payloads that are
// not encrypted decode as they are, so history written before the key was set
// stays readable — except with `refusePlaintext` (production mode), where an
// unencrypted payload (sent by a client without the key, e.g. the temporal CLI,
// or by whoever can write to the namespace) is refused.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from "@temporalio/common";

/** The `encoding` metadata of an encrypted payload. */
export const ENCRYPTED_ENCODING = "binary/encrypted";
/** Metadata naming the key that encrypted a payload (a fingerprint, not the key). */
export const ENCRYPTION_KEY_ID_METADATA = "encryption-key-id";

const ENCRYPTED_ENCODING_BYTES = new TextEncoder().encode(ENCRYPTED_ENCODING);
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class PayloadDecryptionError extends Error {
  override name = "PayloadDecryptionError";
}

/** Production mode refused a payload that arrived unencrypted. */
export class PlaintextPayloadError extends PayloadDecryptionError {
  override name = "PlaintextPayloadError";
}

/** The keys of a codec: `encrypt` makes new payloads (its id goes in their metadata); `decrypt` opens payloads by key id. */
export interface EncryptionCodecKeys {
  encrypt: { id: string; key: Buffer };
  decrypt: ReadonlyMap<string, Buffer>;
}

export interface EncryptionCodecOptions {
  /** Refuse payloads that arrive unencrypted instead of passing them through (production mode). */
  refusePlaintext?: boolean;
}

/** A short, public fingerprint of a key: tells which key a payload needs without revealing it. */
export function payloadKeyId(key: Buffer): string {
  return createHash("sha256").update("zap-payload-key-id").update(key).digest("hex").slice(0, 16);
}

/** The whole payload (metadata and data) as bytes: 4-byte header length, JSON header of base64 metadata, raw data. */
function serialize(payload: Payload): Buffer {
  const metadata = Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString("base64")]));
  const header = Buffer.from(JSON.stringify(metadata));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, Buffer.from(payload.data ?? new Uint8Array())]);
}

function deserialize(bytes: Buffer): Payload {
  const headerLength = bytes.readUInt32BE(0);
  const metadata = JSON.parse(bytes.subarray(4, 4 + headerLength).toString("utf8")) as Record<string, string>;
  return {
    metadata: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, "base64"))])),
    data: new Uint8Array(bytes.subarray(4 + headerLength)),
  };
}

function isEncrypted(payload: Payload): boolean {
  const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
  return !!encoding && Buffer.from(encoding).equals(Buffer.from(ENCRYPTED_ENCODING_BYTES));
}

/**
 * A codec that encrypts every payload: with `keys` (a 32-byte key, e.g. deriveKey(config.payloadKey, "temporal-payloads"),
 * named by its fingerprint; or a ring of named keys) and, with `refusePlaintext`, refuses unencrypted ones.
 */
export function createEncryptionCodec(keys: Buffer | EncryptionCodecKeys, options: EncryptionCodecOptions = {}): PayloadCodec {
  const ring: EncryptionCodecKeys = Buffer.isBuffer(keys) ? { encrypt: { id: payloadKeyId(keys), key: keys }, decrypt: new Map([[payloadKeyId(keys), keys]]) } : keys;
  for (const key of [ring.encrypt.key, ...ring.decrypt.values()]) if (key.length !== 32) throw new Error("the payload key must be 32 bytes");
  const { key, id: keyId } = ring.encrypt;
  const keyIdBytes = new TextEncoder().encode(keyId);
  const known = () => [...ring.decrypt.keys()].map((id) => `"${id}"`).join(", ");
  return {
    async encode(payloads: Payload[]): Promise<Payload[]> {
      return payloads.map((payload) => {
        const nonce = randomBytes(NONCE_BYTES);
        const cipher = createCipheriv("aes-256-gcm", key, nonce);
        const ciphertext = Buffer.concat([cipher.update(serialize(payload)), cipher.final()]);
        return {
          metadata: { [METADATA_ENCODING_KEY]: ENCRYPTED_ENCODING_BYTES, [ENCRYPTION_KEY_ID_METADATA]: keyIdBytes },
          data: new Uint8Array(Buffer.concat([nonce, cipher.getAuthTag(), ciphertext])),
        };
      });
    },
    async decode(payloads: Payload[]): Promise<Payload[]> {
      return payloads.map((payload) => {
        if (!isEncrypted(payload)) {
          if (!options.refusePlaintext) return payload;
          const encoding = Buffer.from(payload.metadata?.[METADATA_ENCODING_KEY] ?? new Uint8Array()).toString("utf8");
          throw new PlaintextPayloadError(
            `refused an unencrypted Temporal payload (encoding ${JSON.stringify(encoding || "none")}): in production mode every payload must be encrypted with ZAP_ENCRYPTION_KEYS (or ZAP_PAYLOAD_KEY); it was sent by a client without the key`,
          );
        }
        const id = Buffer.from(payload.metadata?.[ENCRYPTION_KEY_ID_METADATA] ?? new Uint8Array()).toString("utf8");
        const decryptKey = ring.decrypt.get(id);
        if (!decryptKey) {
          throw new PayloadDecryptionError(
            `a Temporal payload was encrypted with key id "${id || "(unnamed)"}", which this process does not hold (it holds ${known()}): add that key to ZAP_ENCRYPTION_KEYS (after the current one), or set the ZAP_PAYLOAD_KEY it was written with`,
          );
        }
        const raw = Buffer.from(payload.data ?? new Uint8Array());
        if (raw.length < NONCE_BYTES + TAG_BYTES) throw new PayloadDecryptionError("an encrypted Temporal payload is truncated");
        const decipher = createDecipheriv("aes-256-gcm", decryptKey, raw.subarray(0, NONCE_BYTES));
        decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
        try {
          return deserialize(Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]));
        } catch {
          throw new PayloadDecryptionError(`an encrypted Temporal payload does not open with key "${id}" (tampered, or another key of that id)`);
        }
      });
    },
  };
}
