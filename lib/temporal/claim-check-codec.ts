// Claim check for Temporal payloads. Temporal Cloud refuses payloads over
// 2 MB, and large tool or query results would also bloat every history. A
// payload over the threshold is stored in the `PayloadBlob` table under its
// sha256 content hash and replaced on the wire by a small reference payload;
// decoding fetches it back. Runs in the worker's main thread and in clients,
// never inside the workflow sandbox.
import { createHash } from "node:crypto";
import { METADATA_ENCODING_KEY, type Payload, type PayloadCodec } from "@temporalio/common";
import type { Db } from "../db/prisma";

/** The `encoding` metadata of a reference payload. */
export const CLAIM_CHECK_ENCODING = "zap/claim-check";

const CLAIM_CHECK_ENCODING_BYTES = new TextEncoder().encode(CLAIM_CHECK_ENCODING);
const KEY_PATTERN = /^sha256:[0-9a-f]{64}$/;
/** A reference payload is about 120 bytes; a threshold must leave ample room for it. */
const REFERENCE_BYTES = 200;
const MIN_THRESHOLD_BYTES = 1024;
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

export interface ClaimCheckCodecOptions {
  db: Db;
  /** Payloads whose encoded size exceeds this are stored by reference; each encoded batch is brought under it. */
  thresholdBytes: number;
  /** Budget of the in-process cache of recently stored or fetched blobs (0 turns it off). */
  cacheBytes?: number;
}

/** A reference names a blob the database does not hold (deleted, or written to another database). */
export class MissingPayloadBlobError extends Error {
  constructor(readonly key: string) {
    super(`Temporal payload blob ${key} is missing from the PayloadBlob table; the payload it stands for cannot be decoded`);
    this.name = "MissingPayloadBlobError";
  }
}

interface Reference {
  key: string;
  size: number;
}

/**
 * Upper bound of a payload's protobuf-encoded size: each length-delimited field
 * costs at most 1 tag byte and 5 length bytes besides its content.
 */
export function encodedPayloadSize(payload: Payload): number {
  let size = (payload.data?.length ?? 0) + 6;
  for (const [key, value] of Object.entries(payload.metadata ?? {})) {
    size += 6 + (6 + Buffer.byteLength(key)) + (6 + (value?.length ?? 0));
  }
  return size;
}

/**
 * Serializes a whole payload (metadata and data) for storage:
 * 4-byte big-endian header length, JSON header with base64 metadata, then the raw data.
 */
function serialize(payload: Payload): Uint8Array<ArrayBuffer> {
  const metadata = Object.fromEntries(Object.entries(payload.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString("base64")]));
  const header = Buffer.from(JSON.stringify({ v: 1, metadata }));
  const data = payload.data ?? new Uint8Array();
  const bytes = new Uint8Array(4 + header.length + data.length);
  new DataView(bytes.buffer).setUint32(0, header.length);
  bytes.set(header, 4);
  bytes.set(data, 4 + header.length);
  return bytes;
}

function deserialize(bytes: Uint8Array, key: string): Payload {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = buffer.length >= 4 ? buffer.readUInt32BE(0) : -1;
  if (headerLength < 0 || 4 + headerLength > buffer.length) throw new Error(`Temporal payload blob ${key} is corrupt: bad header`);
  const header = JSON.parse(buffer.subarray(4, 4 + headerLength).toString("utf8")) as { v?: number; metadata?: Record<string, string> };
  if (header.v !== 1 || typeof header.metadata !== "object") throw new Error(`Temporal payload blob ${key} has an unknown format`);
  const metadata = Object.fromEntries(Object.entries(header.metadata).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, "base64"))]));
  // A copy, so callers never share the cached buffer.
  return { metadata, data: new Uint8Array(buffer.subarray(4 + headerLength)) };
}

function contentKey(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

function isReference(payload: Payload): boolean {
  const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
  return encoding !== undefined && encoding !== null && Buffer.from(encoding).equals(CLAIM_CHECK_ENCODING_BYTES);
}

function referencePayload(reference: Reference): Payload {
  return {
    metadata: { [METADATA_ENCODING_KEY]: CLAIM_CHECK_ENCODING_BYTES },
    data: new Uint8Array(Buffer.from(JSON.stringify(reference))),
  };
}

function readReference(payload: Payload): Reference {
  const parsed = JSON.parse(Buffer.from(payload.data ?? new Uint8Array()).toString("utf8")) as Partial<Reference>;
  if (typeof parsed.key !== "string" || !KEY_PATTERN.test(parsed.key)) throw new Error("a zap/claim-check payload carries no valid blob key");
  return { key: parsed.key, size: Number(parsed.size ?? 0) };
}

/** Unique-constraint violation, across Prisma's providers (P2002) and raw driver errors. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "P2002" || code === "23505" || /unique constraint/i.test(error instanceof Error ? error.message : "");
}

/** Least-recently-used blobs by total byte size (Map iteration order is insertion order). */
class ByteLru {
  private readonly entries = new Map<string, Uint8Array>();
  private total = 0;

  constructor(private readonly budget: number) {}

  get(key: string): Uint8Array | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: Uint8Array): void {
    if (value.length > this.budget) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.total -= previous.length;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.total += value.length;
    for (const [oldest, blob] of this.entries) {
      if (this.total <= this.budget) break;
      this.entries.delete(oldest);
      this.total -= blob.length;
    }
  }
}

/**
 * A PayloadCodec that stores payloads over `thresholdBytes` in the `PayloadBlob`
 * table (key = sha256 of the content, so writes are idempotent and duplicates
 * share one row) and sends a `zap/claim-check` reference in their place.
 * Give the same threshold and database to every client and worker.
 */
export function createClaimCheckCodec({ db, thresholdBytes, cacheBytes = DEFAULT_CACHE_BYTES }: ClaimCheckCodecOptions): PayloadCodec {
  if (!Number.isInteger(thresholdBytes) || thresholdBytes < MIN_THRESHOLD_BYTES) {
    throw new Error(`claim-check threshold must be a whole number of bytes ≥ ${MIN_THRESHOLD_BYTES} (got ${thresholdBytes})`);
  }
  const cache = new ByteLru(cacheBytes);
  // Blobs being written now: concurrent encodes of the same content share one write.
  const writes = new Map<string, Promise<void>>();

  async function writeBlob(key: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    if (cache.get(key)) return; // stored (or read) by this process already
    const pending = writes.get(key);
    if (pending) return pending;
    const write = (async () => {
      const existing = await db.payloadBlob.findUnique({ where: { key }, select: { key: true } });
      if (!existing) {
        try {
          await db.payloadBlob.create({ data: { key, data: bytes, size: bytes.length } });
        } catch (error) {
          // Another process stored the same content first: same key, same bytes.
          if (!isUniqueViolation(error)) throw error;
        }
      }
      cache.set(key, bytes);
    })();
    writes.set(key, write);
    try {
      await write;
    } finally {
      writes.delete(key);
    }
  }

  async function offload(payload: Payload): Promise<Payload> {
    const bytes = serialize(payload);
    const key = contentKey(bytes);
    await writeBlob(key, bytes);
    return referencePayload({ key, size: bytes.length });
  }

  async function fetchBlobs(keys: string[]): Promise<Map<string, Uint8Array>> {
    const found = new Map<string, Uint8Array>();
    const missing: string[] = [];
    for (const key of new Set(keys)) {
      const cached = cache.get(key);
      if (cached) found.set(key, cached);
      else missing.push(key);
    }
    if (missing.length === 0) return found;
    const rows = await db.payloadBlob.findMany({ where: { key: { in: missing } }, select: { key: true, data: true } });
    for (const row of rows) {
      const bytes = new Uint8Array(row.data);
      if (contentKey(bytes) !== row.key) throw new Error(`Temporal payload blob ${row.key} is corrupt: its content does not match its hash`);
      cache.set(row.key, bytes);
      found.set(row.key, bytes);
    }
    const absent = missing.find((key) => !found.has(key));
    if (absent) throw new MissingPayloadBlobError(absent);
    return found;
  }

  return {
    async encode(payloads: Payload[]): Promise<Payload[]> {
      const sizes = payloads.map((p) => (isReference(p) ? 0 : encodedPayloadSize(p)));
      let total = sizes.reduce((a, b) => a + b, 0);
      // Every payload over the threshold goes; then, largest first, enough others
      // that the batch (one Temporal field, e.g. all arguments) fits under it too.
      const order = sizes.map((size, index) => ({ size, index })).sort((a, b) => b.size - a.size);
      const chosen = new Set<number>();
      for (const { size, index } of order) {
        if (size > thresholdBytes || (total > thresholdBytes && size > REFERENCE_BYTES)) {
          chosen.add(index);
          total -= size - REFERENCE_BYTES;
        }
      }
      if (chosen.size === 0) return payloads;
      return Promise.all(payloads.map((p, index) => (chosen.has(index) ? offload(p) : p)));
    },

    async decode(payloads: Payload[]): Promise<Payload[]> {
      const references = payloads.map((p) => (isReference(p) ? readReference(p) : null));
      if (references.every((r) => r === null)) return payloads;
      const blobs = await fetchBlobs(references.flatMap((r) => (r ? [r.key] : [])));
      return payloads.map((p, index) => {
        const reference = references[index];
        if (!reference) return p;
        const bytes = blobs.get(reference.key);
        if (!bytes) throw new MissingPayloadBlobError(reference.key);
        return deserialize(bytes, reference.key);
      });
    },
  };
}
