// Rotating ZAP_ENCRYPTION_KEYS (issue 23 §4), on SQLite and PostgreSQL: MCP
// secrets sealed with key A (and one sealed before the ring, with the legacy
// AUTH_SECRET material) are readable after rotating to B (B first, A kept),
// `npx tsx scripts/reseal-secrets.ts` re-seals them all with B, idempotently,
// and afterwards they open without A or the legacy material.
import { spawn } from "node:child_process";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/prisma";
import { applyMigrations } from "../../scripts/db/migrate";
import { freshPostgres, freshSqlite, postgresReachable, type TestDatabase } from "../../scripts/test-support/databases";
import { insertMcpServerRow } from "../../scripts/test-support/mcp";
import { UnknownKeyIdError, type EncryptionKey } from "../crypto/keys";
import { sealedKeyId } from "../crypto/seal";
import { resolveRegisteredServer } from "./stored";

const ROOT = path.resolve(import.meta.dirname, "../..");
const LEGACY = "legacy-auth-secret-for-reseal-0123456789";
const A: EncryptionKey = { id: "a", key: randomBytes(32) };
const B: EncryptionKey = { id: "b", key: randomBytes(32) };
const C: EncryptionKey = { id: "c", key: randomBytes(32) };
const envOf = (...keys: EncryptionKey[]) => keys.map((k) => `${k.id}:${k.key.toString("base64")}`).join(",");
const DEMO = { command: "node", args: ["demo.js"] };

const databases: { db: Db; database: TestDatabase }[] = [];
afterAll(async () => {
  for (const { db, database } of databases) {
    await db.$disconnect();
    await database.drop();
  }
});

/** `npx tsx scripts/reseal-secrets.ts` against `databaseUrl` with `env` (and no key from this process's environment). */
function reseal(databaseUrl: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const childEnv = { ...process.env };
  for (const name of ["ZAP_ENCRYPTION_KEYS", "ZAP_ENCRYPTION_KEY", "AUTH_SECRET", "ZAP_PAYLOAD_KEY"]) delete childEnv[name];
  Object.assign(childEnv, { DATABASE_URL: databaseUrl, ...env });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/reseal-secrets.ts"], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

const pgUp = await postgresReachable();

describe.each([
  ["sqlite", freshSqlite],
  ["postgresql", async () => (pgUp ? freshPostgres() : null)],
] as const)("re-sealing MCP secrets on %s", (_provider, make) => {
  it("secrets sealed with A (or the legacy key) are readable after rotating to B, re-sealed with B, and no longer need A", async (ctx) => {
    const database = await make();
    if (!database) return ctx.skip();
    await applyMigrations(database.url);
    const db = createDb(database.url);
    databases.push({ db, database });

    await insertMcpServerRow(db, { name: "legacy_srv", ...DEMO, env: { TOKEN: "legacy-secret-1" } }, { keyMaterial: LEGACY });
    await insertMcpServerRow(db, { name: "a_srv", ...DEMO, env: { TOKEN: "a-secret-2" } }, { keyMaterial: LEGACY, encryptionKeys: [A] });
    await insertMcpServerRow(db, { name: "plain_srv", ...DEMO });
    const sealed = async () => Object.fromEntries((await db.mcpServer.findMany({ where: { secrets: { not: null } } })).map((r) => [r.name, r.secrets!]));
    const before = await sealed();
    expect(Object.fromEntries(Object.entries(before).map(([n, s]) => [n, sealedKeyId(s)]))).toEqual({ legacy_srv: null, a_srv: "a" });

    const rotated = { keyMaterial: LEGACY, encryptionKeys: [B, A] };
    const read = async (config: Parameters<typeof resolveRegisteredServer>[1], name: string) => (await resolveRegisteredServer(db, config, name))?.secrets.env;
    expect(await read(rotated, "a_srv"), "rotated (B first, A kept): A's secrets still open").toEqual({ TOKEN: "a-secret-2" });
    expect(await read(rotated, "legacy_srv")).toEqual({ TOKEN: "legacy-secret-1" });

    const first = await reseal(database.url, { ZAP_ENCRYPTION_KEYS: envOf(B, A), AUTH_SECRET: LEGACY });
    expect(first.output).toContain('✓ MCP secrets sealed with key "b": 2 re-sealed, 0 already current, 1 server(s) without secrets');
    expect(first.code).toBe(0);
    const after = await sealed();
    expect(Object.values(after).map(sealedKeyId)).toEqual(["b", "b"]);
    expect(Object.values(after).join(" ")).not.toMatch(/legacy-secret-1|a-secret-2/);

    // Only B now: no A, no legacy material.
    const onlyB = { keyMaterial: null, encryptionKeys: [B] };
    expect(await read(onlyB, "a_srv")).toEqual({ TOKEN: "a-secret-2" });
    expect(await read(onlyB, "legacy_srv")).toEqual({ TOKEN: "legacy-secret-1" });
    await expect(read({ keyMaterial: LEGACY, encryptionKeys: [A] }, "a_srv"), "A alone no longer opens them").rejects.toBeInstanceOf(UnknownKeyIdError);

    const again = await reseal(database.url, { ZAP_ENCRYPTION_KEYS: envOf(B) });
    expect(again.output, "idempotent").toContain('✓ MCP secrets sealed with key "b": 0 re-sealed, 2 already current, 1 server(s) without secrets');
    expect(again.code).toBe(0);
    expect(await sealed(), "nothing rewritten").toEqual(after);

    // A secret sealed with a key the ring lacks: exit 1 naming the server and the key id; the others stay as they were.
    await insertMcpServerRow(db, { name: "c_srv", ...DEMO, env: { TOKEN: "c-secret" } }, { keyMaterial: null, encryptionKeys: [C] });
    const missing = await reseal(database.url, { ZAP_ENCRYPTION_KEYS: envOf(B) });
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(/✗ MCP server "c_srv": .*key id "c", which is not in ZAP_ENCRYPTION_KEYS/);
    const { c_srv: stillC, ...rest } = await sealed();
    expect(sealedKeyId(stillC!)).toBe("c");
    expect(rest).toEqual(after);

    const noRing = await reseal(database.url, { AUTH_SECRET: LEGACY });
    expect(noRing.code).toBe(1);
    expect(noRing.output).toMatch(/ZAP_ENCRYPTION_KEYS is not set/);
  });
});
