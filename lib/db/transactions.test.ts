// writeTransaction's retry loop against a stand-in client whose $transaction
// fails as told: contention is retried until it passes, anything else reaches
// the caller at once, and exhausted retries become a 503.
import { describe, expect, it } from "vitest";
import { Prisma } from "./generated/sqlite/client";
import type { Db } from "./prisma";
import { registerDbProvider, writeTransaction, type DbTransaction } from "./transactions";
import { DatabaseBusyError } from "./contention";
import { ConflictError } from "../errors";

const busy = () =>
  new Prisma.PrismaClientKnownRequestError("Operation has timed out", {
    code: "P1008",
    clientVersion: "6.19.3",
    meta: { driverAdapterError: Object.assign(new Error("SocketTimeout"), { cause: { originalCode: "5", kind: "SocketTimeout" } }) },
  });
const duplicate = () => new Prisma.PrismaClientKnownRequestError("Unique constraint failed", { code: "P2002", clientVersion: "6.19.3" });

/** A client whose transactions fail with `failures` in turn, then run the work. */
function fakeDb(failures: unknown[], provider: "sqlite" | "postgresql" = "sqlite") {
  const calls: { isolationLevel?: string }[] = [];
  const db = {
    async $transaction(work: (tx: DbTransaction) => Promise<unknown>, options: { isolationLevel?: string }) {
      calls.push(options);
      const failure = failures.shift();
      if (failure !== undefined) throw failure;
      return work({} as DbTransaction);
    },
  } as unknown as Db;
  registerDbProvider(db, provider);
  return { db, calls };
}

describe("writeTransaction", () => {
  it("re-runs a transaction that met a busy database, and returns its result", async () => {
    const { db, calls } = fakeDb([busy(), busy(), busy()]);
    await expect(writeTransaction(db, async () => "done")).resolves.toBe("done");
    expect(calls).toHaveLength(4);
    expect(calls[0]).toMatchObject({ isolationLevel: "Serializable" });
  });

  it("throws an application error at once, without re-running the work", async () => {
    const { db, calls } = fakeDb([]);
    let runs = 0;
    await expect(
      writeTransaction(db, async () => {
        runs += 1;
        throw new ConflictError("This is the last admin");
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(runs).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it("re-runs a unique violation only when the caller asks", async () => {
    await expect(writeTransaction(fakeDb([duplicate()]).db, async () => "done")).rejects.toMatchObject({ code: "P2002" });
    await expect(writeTransaction(fakeDb([duplicate()]).db, async () => "done", { retryOnUniqueViolation: true })).resolves.toBe("done");
  });

  it("turns contention that outlasts every attempt into a 503, keeping the cause", async () => {
    const { db, calls } = fakeDb([busy(), busy(), busy()]);
    const error = await writeTransaction(db, async () => "never", { maxAttempts: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseBusyError);
    expect(error).toMatchObject({ status: 503, code: "unavailable", attempts: 3 });
    expect((error as Error).cause).toMatchObject({ code: "P1008" });
    expect(calls).toHaveLength(3);
  });

  it("asks PostgreSQL for read committed only when told to", async () => {
    const pg = fakeDb([], "postgresql");
    await writeTransaction(pg.db, async () => undefined);
    await writeTransaction(pg.db, async () => undefined, { isolation: "read-committed" });
    expect(pg.calls.map((c) => c.isolationLevel)).toEqual(["Serializable", "ReadCommitted"]);
    // SQLite has one writer at a time: every transaction is serializable.
    const sqlite = fakeDb([]);
    await writeTransaction(sqlite.db, async () => undefined, { isolation: "read-committed" });
    expect(sqlite.calls.map((c) => c.isolationLevel)).toEqual(["Serializable"]);
  });

  it("refuses a nested writeTransaction on the same client instead of waiting for itself", async () => {
    const { db } = fakeDb([]);
    await expect(writeTransaction(db, () => writeTransaction(db, async () => "inner"))).rejects.toThrow(/inside another writeTransaction/);
    // Once the outer one is over, the client is free again.
    await expect(writeTransaction(db, async () => "next")).resolves.toBe("next");
  });

  it("runs one SQLite transaction at a time per client, in arrival order", async () => {
    const { db } = fakeDb([]);
    const order: string[] = [];
    const step = (name: string, ms: number) =>
      writeTransaction(db, async () => {
        order.push(`${name}:start`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        order.push(`${name}:end`);
      });
    await Promise.all([step("a", 20), step("b", 1), step("c", 1)]);
    expect(order).toEqual(["a:start", "a:end", "b:start", "b:end", "c:start", "c:end"]);
  });
});
