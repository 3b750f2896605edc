// The sign-in throttle's memory is the database, so it must count the same on
// both providers and across web servers (two clients of one database stand in
// for two servers here), and its blocks must grow for an account that keeps
// being guessed at.
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { recordSignInFailure, recordSignInSuccess, SIGN_IN_LIMITS, signInBlockedFor } from "./throttle";

const providers = await testProviders();
const opened: { dbs: Db[]; database: TestDatabase }[] = [];

afterAll(async () => {
  for (const { dbs, database } of opened) {
    for (const db of dbs) await db.$disconnect();
    await database.drop();
  }
});

/** Lets the account's current block run out, as if its time had passed. */
async function expireBlock(db: Db, email: string): Promise<void> {
  await db.rateLimit.update({ where: { key: `signin-account:${email}` }, data: { expire: new Date(Date.now() - 1000) } });
}

describe.each(providers)("sign-in throttle on $provider", ({ available, create }) => {
  it("two web servers share the count; blocks double for an account guessed at again; a success clears it", async (ctx) => {
    if (!available) return ctx.skip();
    const database = await create();
    await applyMigrations(database.url);
    const [serverA, serverB] = [createDb(database.url), createDb(database.url)];
    opened.push({ dbs: [serverA, serverB], database });
    const attempt = { email: "target@example.com", ip: "direct" };

    // Ten concurrent failures, split between the two servers: every one counts.
    await Promise.all(Array.from({ length: SIGN_IN_LIMITS.accountFailures - 1 }, (_, i) => recordSignInFailure(i % 2 ? serverA : serverB, attempt)));
    expect(await signInBlockedFor(serverA, attempt), "nine failures: not blocked yet").toBe(0);
    await recordSignInFailure(serverB, attempt);
    const first = await signInBlockedFor(serverA, attempt);
    expect(first, "the tenth failure blocks the account for 15 minutes, on the other server too").toBeGreaterThan(14 * 60);
    expect(first).toBeLessThanOrEqual(15 * 60);

    await expireBlock(serverA, attempt.email);
    expect(await signInBlockedFor(serverA, attempt)).toBe(0);
    for (let i = 0; i < SIGN_IN_LIMITS.accountFailures; i++) await recordSignInFailure(serverA, attempt);
    expect(await signInBlockedFor(serverB, attempt), "the second block within a day lasts 30 minutes").toBeGreaterThan(29 * 60);

    await expireBlock(serverA, attempt.email);
    await recordSignInSuccess(serverA, attempt);
    for (let i = 0; i < SIGN_IN_LIMITS.accountFailures; i++) await recordSignInFailure(serverA, attempt);
    const afterSuccess = await signInBlockedFor(serverA, attempt);
    expect(afterSuccess, "a success in between resets the backoff to 15 minutes").toBeLessThanOrEqual(15 * 60);
    expect(afterSuccess).toBeGreaterThan(14 * 60);

    expect(await signInBlockedFor(serverA, { email: "someone-else@example.com", ip: "direct" }), "other accounts are not affected").toBe(0);
    const audit = await serverA.auditEvent.count({ where: { action: "auth.sign_in_throttled", target: attempt.email } });
    expect(audit, "each block is audited once").toBe(3);
  });
});

describe("without a trusted proxy", () => {
  it("a flood of failures over many made-up emails does not lock anyone else out (no shared bucket to fill)", async () => {
    const database = await providers[0]!.create();
    await applyMigrations(database.url);
    const db = createDb(database.url);
    opened.push({ dbs: [db], database });
    // Every caller looks the same ("direct"): had the shared address been counted, 400 failures would block it for everybody.
    for (let batch = 0; batch < 8; batch++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => recordSignInFailure(db, { email: `made-up-${batch}-${i}@example.com`, ip: "direct" })));
    }
    expect(await signInBlockedFor(db, { email: "admin@zap.local", ip: "direct" })).toBe(0);
    expect(await db.auditEvent.count({ where: { action: "auth.sign_in_throttled" } })).toBe(0);
  });
});
