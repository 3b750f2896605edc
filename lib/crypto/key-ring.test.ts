// ZAP_ENCRYPTION_KEYS (issue 23 §4): named keys that rotate, for sealed MCP
// secrets and the payload codec — the first encrypts, any decrypts, an unknown
// id is named, and what was sealed before the ring still opens.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { METADATA_ENCODING_KEY, type Payload } from "@temporalio/common";
import { EnvError, parseEnv } from "../config/env";
import { parseEncryptionKeys } from "../config/encryption-keys";
import { deriveKey, UnknownKeyIdError } from "./keys";
import { seal, sealedKeyId } from "./seal";
import { sealSecrets, unsealSecrets } from "../mcp/stored";
import { encryptionCodecFor } from "../temporal/payload-codecs";
import { createEncryptionCodec, ENCRYPTION_KEY_ID_METADATA, PayloadDecryptionError } from "../temporal/encryption-codec";

const A = randomBytes(32);
const B = randomBytes(32);
const LEGACY = "legacy-auth-secret-0123456789abcdefghij";
const ring = (...keys: [string, Buffer][]) => ({ keyMaterial: LEGACY, encryptionKeys: keys.map(([id, key]) => ({ id, key })) });
const secrets = { env: { API_TOKEN: "tok-123" }, headers: { "X-Api-Key": "hdr-456" } };
const json = (value: unknown): Payload => ({ metadata: { [METADATA_ENCODING_KEY]: new TextEncoder().encode("json/plain") }, data: new TextEncoder().encode(JSON.stringify(value)) });
const keyIdOf = (payload: Payload) => Buffer.from(payload.metadata?.[ENCRYPTION_KEY_ID_METADATA] ?? []).toString("utf8");

describe("ZAP_ENCRYPTION_KEYS", () => {
  it("is id:base64key entries, 32-byte keys, unique ids; parseEnv names the variable and never echoes a key", () => {
    const text = `new:${B.toString("base64")}, old:${A.toString("base64url")}`;
    const parsed = parseEncryptionKeys(text);
    expect(parsed).toEqual({ ok: true, keys: [{ id: "new", key: B }, { id: "old", key: A }] });
    expect(parseEnv({ ZAP_ENCRYPTION_KEYS: text }).encryptionKeys.map((k) => k.id)).toEqual(["new", "old"]);
    expect(parseEnv({}).encryptionKeys).toEqual([]);
    expect(parseEncryptionKeys(`short:${randomBytes(16).toString("base64")}`)).toEqual({ ok: false, message: expect.stringMatching(/16 bytes; expected 32/) });
    expect(parseEncryptionKeys(`a:${A.toString("base64")},a:${B.toString("base64")}`)).toEqual({ ok: false, message: expect.stringMatching(/"a" appears twice/) });
    expect(parseEncryptionKeys(A.toString("base64"))).toMatchObject({ ok: false });
    const bad = `bad id:${A.toString("base64")}`;
    const error = (() => {
      try {
        parseEnv({ ZAP_ENCRYPTION_KEYS: bad });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).issues[0]?.variable).toBe("ZAP_ENCRYPTION_KEYS");
    expect((error as EnvError).message).not.toContain(A.toString("base64"));
  });
});

describe("sealed MCP secrets with a key ring", () => {
  it("seal with the first key, naming its id, and open with any key of the ring", () => {
    const sealed = sealSecrets(ring(["a", A]), secrets);
    expect(sealedKeyId(sealed)).toBe("a");
    expect(sealed).not.toContain("tok-123");
    expect(unsealSecrets(ring(["b", B], ["a", A]), sealed), "after rotating, the old key still opens").toEqual(secrets);
    expect(sealedKeyId(sealSecrets(ring(["b", B], ["a", A]), secrets)), "new seals use the first key").toBe("b");
  });

  it("an id the ring no longer holds is a clear error naming it", () => {
    const sealed = sealSecrets(ring(["a", A]), secrets);
    expect(() => unsealSecrets(ring(["b", B]), sealed)).toThrow(UnknownKeyIdError);
    expect(() => unsealSecrets(ring(["b", B]), sealed)).toThrow(/key id "a", which is not in ZAP_ENCRYPTION_KEYS \(it holds "b"\)/);
    // Another key under the same id does not open it either.
    expect(() => unsealSecrets(ring(["a", B]), sealed)).toThrow(/does not open/);
  });

  it("a secret sealed before the ring (v1, legacy key from ZAP_ENCRYPTION_KEY / AUTH_SECRET) still opens, and without a ring sealing is as before", () => {
    const legacySealed = seal(deriveKey(LEGACY, "mcp-secrets"), JSON.stringify(secrets));
    expect(sealedKeyId(legacySealed)).toBeNull();
    expect(unsealSecrets(ring(["b", B], ["a", A]), legacySealed)).toEqual(secrets);
    expect(unsealSecrets({ keyMaterial: LEGACY }, legacySealed)).toEqual(secrets);
    const noRing = sealSecrets({ keyMaterial: LEGACY }, secrets);
    expect(noRing.startsWith("v1.")).toBe(true);
    expect(unsealSecrets({ keyMaterial: LEGACY }, noRing)).toEqual(secrets);
    expect(() => unsealSecrets({ keyMaterial: null, encryptionKeys: [{ id: "b", key: B }] }, legacySealed)).toThrow(/legacy key/);
  });
});

describe("the payload codec with a key ring", () => {
  const codec = (keys: [string, Buffer][], payloadKey: string | null = null) => encryptionCodecFor({ payloadKey, encryptionKeys: keys.map(([id, key]) => ({ id, key })) })!;

  it("encrypts with the first key (its id in the metadata) and decrypts with any", async () => {
    const encoded = await codec([["a", A]]).encode([json({ task: "secret" })]);
    expect(keyIdOf(encoded[0]!)).toBe("a");
    expect(await codec([["b", B], ["a", A]]).decode(encoded)).toEqual([json({ task: "secret" })]);
    expect(keyIdOf((await codec([["b", B], ["a", A]]).encode([json(1)]))[0]!)).toBe("b");
  });

  it("an unknown key id is a clear error naming it", async () => {
    const encoded = await codec([["a", A]]).encode([json({ task: "secret" })]);
    const failure = codec([["b", B]]).decode(encoded);
    await expect(failure).rejects.toBeInstanceOf(PayloadDecryptionError);
    await expect(codec([["b", B]]).decode(encoded)).rejects.toThrow(/key id "a", which this process does not hold \(it holds "b"\)/);
  });

  it("payloads encrypted with the legacy ZAP_PAYLOAD_KEY still decrypt beside the ring", async () => {
    const payloadKey = "legacy-payload-key-0123456789abcdefghij";
    const encoded = await createEncryptionCodec(deriveKey(payloadKey, "temporal-payloads")).encode([json({ old: true })]);
    expect(await codec([["b", B]], payloadKey).decode(encoded)).toEqual([json({ old: true })]);
    await expect(codec([["b", B]]).decode(encoded)).rejects.toBeInstanceOf(PayloadDecryptionError);
  });
});
