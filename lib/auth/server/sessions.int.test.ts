// Signing out ends exactly the session signed out, on both database providers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { isSignedOut, recordSignOut, sessionClaims, type SessionClaims } from "./sessions";

const providers = await testProviders();

describe.each(providers)("session sign-out records on $provider", ({ available, create }) => {
  let database: TestDatabase | undefined;
  let db: Db;
  let userId = "";

  beforeAll(async () => {
    if (!available) return;
    database = await create();
    await applyMigrations(database.url);
    db = createDb(database.url);
    userId = (await db.user.create({ data: { email: `sessions-${Date.now()}@zap.local`, name: "Sessions" } })).id;
  });
  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  const session = (sessionId: string, signedInAt = Date.now() - 60_000): SessionClaims => ({ sessionId, userId, signedInAt });

  it.skipIf(!available)("refuses the signed-out session and no other, and audits the sign-out", async () => {
    await recordSignOut(db, { sessionId: "s-ended", userId });
    expect(await isSignedOut(db, session("s-ended")), "the signed-out session").toBe(true);
    expect(await isSignedOut(db, session("s-other")), "another session of the same user").toBe(false);
    const audit = await db.auditEvent.findFirst({ where: { target: "s-ended" } });
    expect(audit).toMatchObject({ actorId: userId, action: "session.signed_out" });
  });

  it.skipIf(!available)("still finds the sign-out when the signing-in server's clock ran a little ahead", async () => {
    await recordSignOut(db, { sessionId: "s-skewed", userId });
    expect(await isSignedOut(db, session("s-skewed", Date.now() + 60_000))).toBe(true);
  });
});

describe("sessionClaims", () => {
  it("reads the claims set at sign-in", () => {
    expect(sessionClaims({ sub: "u1", sid: "s1", signedInAt: 5 })).toEqual({ sessionId: "s1", userId: "u1", signedInAt: 5 });
  });

  it("refuses a token minted before sessions had ids: it could never be signed out", () => {
    expect(sessionClaims({ sub: "u1", name: "Old", email: "old@zap.local" })).toBeNull();
  });
});
