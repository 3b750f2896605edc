// The sign-in throttle's memory is the database, so it must count the same on
// both providers and across web servers (two clients of one database stand in
// for two servers here): attempts are counted before the hash by an atomic
// consume, so a burst cannot pass a limit together; an address's blocks grow
// for an account it keeps guessing at; the account itself is only ever on
// guard (an address without failures still gets through).
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { consumeSignInAttempt, recordSignInFailure, recordSignInSuccess, SIGN_IN_LIMITS, signInBlockedFor, signInBlocks, type SignInAttempt, type SignInGate } from "./throttle";

const providers = await testProviders();
const opened: { dbs: Db[]; database: TestDatabase }[] = [];

afterAll(async () => {
  for (const { dbs, database } of opened) {
    for (const db of dbs) await db.$disconnect();
    await database.drop();
  }
});

/** Lets every current block and window run out, as if their time had passed (the day's backoff stays). */
async function expireWindows(db: Db): Promise<void> {
  await db.rateLimit.updateMany({ where: { key: { startsWith: "signin-" }, NOT: { key: { contains: "lockouts" } } }, data: { expire: new Date(Date.now() - 1000) } });
}

/** One attempt that fails its password check (if it is let through at all). */
async function fail(db: Db, attempt: SignInAttempt): Promise<SignInGate> {
  const gate = await consumeSignInAttempt(db, attempt);
  if (gate.allowed) await recordSignInFailure(db, gate.ticket);
  return gate;
}

describe.each(providers)("sign-in throttle on $provider", ({ available, create }) => {
  it("60 attempts at once for one account, over two web servers: exactly the limit are let through to the hash", async (ctx) => {
    if (!available) return ctx.skip();
    const database = await create();
    await applyMigrations(database.url);
    const [serverA, serverB] = [createDb(database.url), createDb(database.url)];
    opened.push({ dbs: [serverA, serverB], database });
    for (const ip of ["198.51.100.1", "direct"]) {
      const attempt = { email: `burst-${ip}@example.com`, ip };
      const gates = await Promise.all(Array.from({ length: 60 }, (_, i) => consumeSignInAttempt(i % 2 ? serverA : serverB, attempt)));
      expect(gates.filter((g) => g.allowed), `from ${ip}`).toHaveLength(SIGN_IN_LIMITS.pairFailures);
      for (const gate of gates) if (gate.allowed) await recordSignInFailure(serverA, gate.ticket);
      expect(await signInBlockedFor(serverB, attempt), "the address is blocked for 15 minutes, on the other server too").toBeGreaterThan(14 * 60);
    }
  });

  it("an address is blocked for the account it guesses at, doubling; the owner from another address gets through; a success clears its count", async (ctx) => {
    if (!available) return ctx.skip();
    const database = await create();
    await applyMigrations(database.url);
    const [serverA, serverB] = [createDb(database.url), createDb(database.url)];
    opened.push({ dbs: [serverA, serverB], database });
    const attacker = { email: "target@example.com", ip: "198.51.100.1" };
    const owner = { email: "target@example.com", ip: "198.51.100.2" };

    for (let i = 0; i < SIGN_IN_LIMITS.pairFailures - 1; i++) await fail(i % 2 ? serverA : serverB, attacker);
    expect(await signInBlockedFor(serverA, attacker), "nine failures: not blocked yet").toBe(0);
    await fail(serverB, attacker);
    const first = await signInBlockedFor(serverA, attacker);
    expect(first, "the tenth failure blocks the address for 15 minutes").toBeGreaterThan(14 * 60);
    expect(first).toBeLessThanOrEqual(15 * 60);
    expect((await consumeSignInAttempt(serverA, attacker)).allowed, "the right password from there waits too").toBe(false);

    // The account is on guard now: the owner, from an address without failures, may try (once: a success clears it).
    expect(await signInBlockedFor(serverA, owner)).toBe(0);
    const ownerGate = await consumeSignInAttempt(serverB, owner);
    expect(ownerGate.allowed).toBe(true);
    if (ownerGate.allowed) await recordSignInSuccess(serverB, ownerGate.ticket);
    // A fresh address that fails once is not let through again while the account is on guard.
    const other = { email: "target@example.com", ip: "198.51.100.3" };
    await fail(serverA, attacker); // refused (blocked), counts nothing new
    for (let i = 0; i < SIGN_IN_LIMITS.accountFailures; i++) await fail(serverA, { email: "target@example.com", ip: `198.51.100.${100 + i}` });
    expect((await fail(serverA, other)).allowed, "a fresh address gets one try").toBe(true);
    expect((await consumeSignInAttempt(serverA, other)).allowed, "not two").toBe(false);
    const blocks = (await signInBlocks(serverA, ["target@example.com"])).get("target@example.com");
    expect(blocks?.addresses.map((a) => a.address)).toEqual(["198.51.100.1"]);
    expect(blocks?.guardedUntil).not.toBeNull();

    await expireWindows(serverA);
    expect(await signInBlockedFor(serverA, attacker)).toBe(0);
    for (let i = 0; i < SIGN_IN_LIMITS.pairFailures; i++) await fail(serverA, attacker);
    expect(await signInBlockedFor(serverB, attacker), "the second block of that address within a day lasts 30 minutes").toBeGreaterThan(29 * 60);

    expect(await signInBlockedFor(serverA, { email: "someone-else@example.com", ip: "198.51.100.1" }), "other accounts are not affected").toBe(0);
    const audit = await serverA.auditEvent.findMany({ where: { action: "auth.sign_in_throttled", target: "target@example.com" } });
    expect(audit.filter((r) => r.details.includes('"scope":"address"')), "each address block is audited once").toHaveLength(2);
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
      await Promise.all(Array.from({ length: 50 }, (_, i) => fail(db, { email: `made-up-${batch}-${i}@example.com`, ip: "direct" })));
    }
    expect(await signInBlockedFor(db, { email: "admin@zap.local", ip: "direct" })).toBe(0);
    expect(await db.auditEvent.count({ where: { action: "auth.sign_in_throttled" } })).toBe(0);
  });
});
