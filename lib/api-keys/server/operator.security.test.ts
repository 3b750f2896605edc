// The operator's door to API keys (`npm run api-key`, issue 23 §1) against a
// real (SQLite) database: it keeps the web's rules for the owner it names, a
// key it creates is accepted by the server's Bearer check as that owner, its
// rows are audited as the system with the CLI and the operator named, and a key
// it revokes is refused at once. One story runs the command itself.
import { execFile } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/lib/db/prisma";
import type { TestDatabase } from "@/scripts/test-support/databases";
import { seededSqlite } from "@/scripts/test-support/seeded-sqlite";
import { AppError } from "@/lib/errors";
import { authenticateApiKey } from "@/lib/auth/server/api-keys";
import { createApiKeyAsOperator, listApiKeysAsOperator, revokeApiKeyAsOperator } from "./api-keys";
import { scaledWait } from "../../../scripts/test-support/wait-scale";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SECRET = "operator-test-secret-0123456789-abcdefghij";
const OPERATOR = "ops@server-1";

let database: TestDatabase;
let db: Db;
const holder = globalThis as typeof globalThis & { zapDb?: unknown };

beforeAll(async () => {
  // Migrated and demo-seeded: a copy of the global setup's template (no Prisma CLI run, no bcrypt hashes here).
  database = await seededSqlite();
  process.env.DATABASE_URL = database.url;
  process.env.AUTH_SECRET = SECRET;
  db = createDb(database.url);
  holder.zapDb = db;
});

afterAll(async () => {
  delete holder.zapDb;
  await db.$disconnect();
  await database.drop();
});

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

async function auditOf(target: string, action: string) {
  const row = await db.auditEvent.findFirst({ where: { target, action } });
  return row && { actorId: row.actorId, details: JSON.parse(row.details) as Record<string, unknown> };
}

describe("npm run api-key's operations", () => {
  it("creates a key the server accepts as its owner, audited as the system with the CLI, the operator and the owner named", async () => {
    const created = await createApiKeyAsOperator(OPERATOR, "Builder@zap.local", { name: "ci", role: "builder", expiresInDays: 7 }, db);
    expect(created.key).toMatchObject({ kind: "personal", role: "builder", status: "active", owner: { email: "builder@zap.local" }, createdById: null });
    const caller = await authenticateApiKey(created.token, db);
    expect(caller).toMatchObject({ email: "builder@zap.local", role: "builder", apiKeyId: created.key.id });
    expect(await auditOf(created.key.id, "api_key.created")).toEqual({
      actorId: null,
      details: { name: "ci", prefix: created.key.prefix, kind: "personal", role: "builder", expiresAt: created.key.expiresAt, via: "cli", operator: OPERATOR, owner: "builder@zap.local" },
    });
    expect(JSON.stringify(await db.auditEvent.findMany()), "the token is in no audit row").not.toContain(created.token);
  });

  it("keeps the web's rules for the owner: no role above theirs, service keys for admins, an enabled and existing account, valid fields", async () => {
    expect((await refusal(createApiKeyAsOperator(OPERATOR, "builder@zap.local", { name: "x", role: "admin" }, db))).status).toBe(403);
    expect((await refusal(createApiKeyAsOperator(OPERATOR, "builder@zap.local", { name: "x", role: "builder", kind: "service" }, db))).userMessage).toBe("Service keys belong to admins; builder@zap.local is builder");
    expect((await refusal(createApiKeyAsOperator(OPERATOR, "nobody@zap.local", { name: "x", role: "viewer" }, db))).status).toBe(404);
    const invalid = await refusal(createApiKeyAsOperator(OPERATOR, "builder@zap.local", { name: " ", role: "viewer", expiresInDays: 0 }, db));
    expect([invalid.status, invalid.issues.map((i) => i.path).sort()]).toEqual([422, ["expiresInDays", "name"]]);
    const viewer = await db.user.update({ where: { email: "viewer@zap.local" }, data: { disabledAt: new Date() } });
    expect((await refusal(createApiKeyAsOperator(OPERATOR, viewer.email, { name: "x", role: "viewer" }, db))).userMessage).toMatch(/is disabled/);
    await db.user.update({ where: { id: viewer.id }, data: { disabledAt: null } });
    const service = await createApiKeyAsOperator(OPERATOR, "admin@zap.local", { name: "deployer", role: "approver", kind: "service" }, db);
    expect(service.key).toMatchObject({ kind: "service", role: "approver" });
  });

  it("lists one owner's keys or every key, and revokes any key at once (audited, refused on its next use)", async () => {
    const created = await createApiKeyAsOperator(OPERATOR, "approver@zap.local", { name: "bot", role: "approver" }, db);
    expect((await listApiKeysAsOperator({ ownerEmail: "approver@zap.local" }, db)).map((k) => k.id)).toEqual([created.key.id]);
    expect((await listApiKeysAsOperator({}, db)).length).toBeGreaterThanOrEqual(3);
    const revoked = await revokeApiKeyAsOperator(OPERATOR, { id: created.key.id }, db);
    expect(revoked.status).toBe("revoked");
    expect((await refusal(authenticateApiKey(created.token, db))).userMessage).toMatch(/^API key refused: this key was revoked at /);
    expect(await auditOf(created.key.id, "api_key.revoked")).toMatchObject({ actorId: null, details: { via: "cli", operator: OPERATOR } });
    await revokeApiKeyAsOperator(OPERATOR, { id: created.key.id }, db);
    expect(await db.auditEvent.count({ where: { target: created.key.id, action: "api_key.revoked" } }), "revoking again writes nothing").toBe(1);
    expect((await refusal(revokeApiKeyAsOperator(OPERATOR, { id: "nope" }, db))).status).toBe(404);
  });

  it("the command prints the token once, which the server then accepts (same database, same AUTH_SECRET)", async () => {
    const args = ["--conditions=react-server", "scripts/api-key.ts", "create", "--owner", "approver@zap.local", "--name", "from-cli", "--role", "viewer"];
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, AUTH_SECRET: SECRET };
    delete env.ZAP_ENCRYPTION_KEY;
    delete env.ZAP_ENCRYPTION_KEYS;
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(path.join(ROOT, "node_modules/.bin/tsx"), args, { cwd: ROOT, env, timeout: 60_000 }, (error, out, err) => resolve({ code: error ? Number(error.code ?? -1) : 0, stdout: out, stderr: err })),
    );
    expect(code, stderr).toBe(0);
    const token = stdout.split("\n").find((line) => line.startsWith("zap_")) ?? "";
    expect(token, stdout).toMatch(/^zap_[A-Za-z0-9_-]{54}$/);
    expect(await authenticateApiKey(token, db)).toMatchObject({ email: "approver@zap.local", role: "viewer" });
  }, scaledWait(90_000));
});
