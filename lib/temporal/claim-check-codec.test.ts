// The claim-check codec against a fresh, migrated SQLite database.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defaultPayloadConverter, METADATA_ENCODING_KEY, type Payload } from "@temporalio/common";
import { parseEnv } from "../config/env";
import { createDb, type Db } from "../db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { freshSqlite, type TestDatabase } from "../../scripts/test-support/databases";
import { CLAIM_CHECK_ENCODING, createClaimCheckCodec, encodedPayloadSize, MissingPayloadBlobError } from "./claim-check-codec";

const THRESHOLD = 16 * 1024;

/** A JSON payload of about `bytes` bytes, as the SDK's default converter makes it. */
function jsonPayload(bytes: number): Payload {
  return defaultPayloadConverter.toPayload({ text: randomBytes(Math.ceil(bytes / 2)).toString("hex").slice(0, bytes) });
}

function encodingOf(payload: Payload): string {
  return Buffer.from(payload.metadata?.[METADATA_ENCODING_KEY] ?? new Uint8Array()).toString();
}

/** `db` whose existence check always misses, as when another writer inserts between our check and our insert. */
function racingDb(db: Db): Db {
  const blobs = new Proxy(db.payloadBlob, {
    get: (target, property) => (property === "findUnique" ? async () => null : Reflect.get(target, property)),
  });
  return new Proxy(db, { get: (target, property) => (property === "payloadBlob" ? blobs : Reflect.get(target, property)) });
}

describe("claim-check payload codec", () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await freshSqlite();
    await applyMigrations(database.url);
    db = createDb(database.url);
  }, 120_000);

  afterAll(async () => {
    await db.$disconnect();
    await database.drop();
  });

  beforeEach(async () => {
    await db.payloadBlob.deleteMany();
  });

  it("leaves payloads under the threshold untouched and stores nothing", async () => {
    const codec = createClaimCheckCodec({ db, thresholdBytes: THRESHOLD });
    const payloads = [jsonPayload(10), jsonPayload(THRESHOLD / 2)];
    const encoded = await codec.encode(payloads);
    expect(encoded, "small payloads must pass through as they are").toEqual(payloads);
    expect(await codec.decode(encoded)).toEqual(payloads);
    expect(await db.payloadBlob.count(), "nothing should be stored for small payloads").toBe(0);
  });

  it("replaces a large payload by a small reference and decodes it back, also in another process", async () => {
    const large = jsonPayload(THRESHOLD * 20);
    const small = jsonPayload(100);
    const [reference, untouched] = await createClaimCheckCodec({ db, thresholdBytes: THRESHOLD }).encode([large, small]);

    expect(encodingOf(reference!)).toBe(CLAIM_CHECK_ENCODING);
    expect(encodedPayloadSize(reference!), "the reference must fit well under the threshold").toBeLessThan(512);
    expect(untouched).toEqual(small);
    const rows = await db.payloadBlob.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(Buffer.from(reference!.data!).toString()).toContain(rows[0]!.key);

    // A fresh codec has an empty cache: the blob comes from the database.
    const decoded = await createClaimCheckCodec({ db, thresholdBytes: THRESHOLD }).decode([reference!, untouched!]);
    expect(decoded).toEqual([large, small]);
    expect(defaultPayloadConverter.fromPayload(decoded[0]!)).toEqual(defaultPayloadConverter.fromPayload(large));
    // Writes and reads back a 5 MB blob through SQLite: seconds on a busy machine.
  }, 30_000);

  it("brings a batch of payloads each under the threshold, but over it together, under the threshold", async () => {
    const codec = createClaimCheckCodec({ db, thresholdBytes: THRESHOLD });
    const payloads = Array.from({ length: 6 }, () => jsonPayload(THRESHOLD * 0.6));
    const encoded = await codec.encode(payloads);
    const total = encoded.reduce((sum, p) => sum + encodedPayloadSize(p), 0);
    expect(total, "the encoded batch must fit under the threshold").toBeLessThanOrEqual(THRESHOLD);
    expect(await createClaimCheckCodec({ db, thresholdBytes: THRESHOLD }).decode(encoded)).toEqual(payloads);
  });

  it("stores equal content once, however many writers encode it at the same time", async () => {
    const large = jsonPayload(THRESHOLD * 4);
    const writers = [createClaimCheckCodec({ db, thresholdBytes: THRESHOLD }), createClaimCheckCodec({ db, thresholdBytes: THRESHOLD })];
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => writers[i % 2]!.encode([large])));
    const keys = new Set(results.map(([reference]) => Buffer.from(reference!.data!).toString()));
    expect(keys.size, "equal content must map to one reference").toBe(1);
    expect(await db.payloadBlob.count()).toBe(1);

    // A writer that loses the race to insert must not fail.
    const [again] = await createClaimCheckCodec({ db: racingDb(db), thresholdBytes: THRESHOLD }).encode([large]);
    expect(Buffer.from(again!.data!).toString()).toBe([...keys][0]);
    expect(await db.payloadBlob.count()).toBe(1);
  });

  it("fails with an error naming the key when the blob is missing", async () => {
    const [reference] = await createClaimCheckCodec({ db, thresholdBytes: THRESHOLD }).encode([jsonPayload(THRESHOLD * 2)]);
    const { key } = JSON.parse(Buffer.from(reference!.data!).toString()) as { key: string };
    await db.payloadBlob.deleteMany();

    const decoding = createClaimCheckCodec({ db, thresholdBytes: THRESHOLD }).decode([reference!]);
    await expect(decoding).rejects.toBeInstanceOf(MissingPayloadBlobError);
    await expect(decoding).rejects.toThrow(key);
  });

  it("serves recently used blobs from a cache bounded by bytes", async () => {
    const codec = createClaimCheckCodec({ db, thresholdBytes: THRESHOLD, cacheBytes: THRESHOLD * 5 });
    const first = jsonPayload(THRESHOLD * 3);
    const second = jsonPayload(THRESHOLD * 3);
    const [firstReference] = await codec.encode([first]);
    await db.payloadBlob.deleteMany();
    expect(await codec.decode([firstReference!]), "a blob this process just stored comes from its cache").toEqual([first]);

    // Storing a second blob overflows the budget and evicts the first one.
    await codec.encode([second]);
    await db.payloadBlob.deleteMany();
    await expect(codec.decode([firstReference!])).rejects.toBeInstanceOf(MissingPayloadBlobError);
  });

  it("refuses a threshold too small to hold a reference", () => {
    expect(() => createClaimCheckCodec({ db, thresholdBytes: 100 })).toThrow(/threshold/);
  });
});

describe("ZAP_PAYLOAD_OFFLOAD_BYTES", () => {
  it("defaults to 256 KB and names itself when invalid", () => {
    expect(parseEnv({}).temporal.payloadOffloadBytes).toBe(256 * 1024);
    expect(parseEnv({ ZAP_PAYLOAD_OFFLOAD_BYTES: "65536" }).temporal.payloadOffloadBytes).toBe(65536);
    expect(() => parseEnv({ ZAP_PAYLOAD_OFFLOAD_BYTES: "3000000" })).toThrow(/ZAP_PAYLOAD_OFFLOAD_BYTES: expected at most 2097152/);
    expect(() => parseEnv({ ZAP_PAYLOAD_OFFLOAD_BYTES: "lots" })).toThrow(/ZAP_PAYLOAD_OFFLOAD_BYTES/);
  });
});
