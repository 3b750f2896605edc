import { describe, expect, it } from "vitest";
import { METADATA_ENCODING_KEY, type Payload } from "@temporalio/common";
import { deriveKey } from "../crypto/keys";
import { createEncryptionCodec, ENCRYPTED_ENCODING, PayloadDecryptionError } from "./encryption-codec";

const json = (value: unknown): Payload => ({ metadata: { [METADATA_ENCODING_KEY]: new TextEncoder().encode("json/plain") }, data: new TextEncoder().encode(JSON.stringify(value)) });
const key = deriveKey("payload-key-for-unit-tests-0123456789", "temporal-payloads");

describe("encryption codec", () => {
  it("round-trips payloads and hides their content and metadata", async () => {
    const codec = createEncryptionCodec(key);
    const original = [json({ task: "secret task" }), { metadata: {}, data: new Uint8Array() }];
    const encoded = await codec.encode(original);
    for (const payload of encoded) {
      expect(new TextDecoder().decode(payload.metadata?.[METADATA_ENCODING_KEY])).toBe(ENCRYPTED_ENCODING);
      expect(Buffer.from(payload.data ?? []).toString("latin1")).not.toContain("secret task");
    }
    expect(await codec.decode(encoded)).toEqual(original);
  });

  it("leaves payloads written before encryption as they are", async () => {
    const plain = [json({ old: true })];
    expect(await createEncryptionCodec(key).decode(plain)).toEqual(plain);
  });

  it("refuses another key's payloads and tampered ones with a clear error", async () => {
    const [encoded] = await createEncryptionCodec(key).encode([json({ a: 1 })]);
    const other = createEncryptionCodec(deriveKey("another-payload-key-0123456789abcdef", "temporal-payloads"));
    await expect(other.decode([encoded!])).rejects.toBeInstanceOf(PayloadDecryptionError);
    const tampered = { ...encoded!, data: Uint8Array.from(encoded!.data!, (b, i) => (i === 40 ? b ^ 1 : b)) };
    await expect(createEncryptionCodec(key).decode([tampered])).rejects.toThrow(/does not open/);
  });
});
