// A serializable transaction that PostgreSQL cancels at its COMMIT gives its connection back (lib/db/pg-adapter.ts):
// before, Prisma's transaction manager left it checked out of the pool, and the client's $disconnect — which waits
// for every connection — never returned (the engine harness's stop hung on it in the online-evaluation tests).
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "./prisma";
import { writeTransaction, type DbTransaction } from "./transactions";
import { DatabaseBusyError } from "./contention";
import { testProviders, type TestDatabase } from "../../scripts/test-support/databases";

const postgres = (await testProviders({ empty: true })).find((p) => p.provider === "postgresql");

/** A promise and its resolver: the two transactions below take turns by them. */
function gate(): { open: () => void; passed: Promise<void> } {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { open, passed };
}

/** Resolves "done" when `work` settles, "late" after `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<"done" | "late"> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms)));
  const outcome = await Promise.race([work.then(() => "done" as const, () => "done" as const), late]);
  clearTimeout(timer);
  return outcome;
}

describe.skipIf(!postgres?.available)("the PostgreSQL adapter", () => {
  let database: TestDatabase | undefined;
  let db: Db | undefined;
  afterAll(async () => {
    // The leak this file is about makes $disconnect hang: bounded, so a failure here does not also hang the hook.
    if (db) await within(db.$disconnect(), 5_000);
    await database?.drop();
  });

  it("gives back the connection of a transaction cancelled at COMMIT: $disconnect returns at once", async () => {
    database = await postgres!.create();
    db = createDb(database.url);
    const client = db;
    await client.$executeRawUnsafe("create table on_call (id int primary key, on_call boolean not null)");
    await client.$executeRawUnsafe("insert into on_call values (1, true), (2, true)");

    // Write skew, as in PostgreSQL's SSI examples: each reads both rows, then takes a different one off call. Both
    // updates go through; the second COMMIT is refused ("canceled on identification as a pivot, during commit attempt").
    const bothRead = [gate(), gate()];
    const bothWrote = [gate(), gate()];
    const firstCommitted = gate();
    const finished = [false, false];
    const offCall = (index: 0 | 1, id: number) => async (tx: DbTransaction) => {
      await tx.$queryRawUnsafe("select count(*) from on_call where on_call");
      bothRead[index]!.open();
      await Promise.all(bothRead.map((g) => g.passed));
      await tx.$executeRawUnsafe(`update on_call set on_call = false where id = ${id}`);
      bothWrote[index]!.open();
      await Promise.all(bothWrote.map((g) => g.passed));
      if (index === 1) await firstCommitted.passed;
      finished[index] = true;
    };
    // One attempt each: a retry would succeed and hide which statement failed.
    const first = writeTransaction(client, offCall(0, 1), { maxAttempts: 1 });
    const second = writeTransaction(client, offCall(1, 2), { maxAttempts: 1 });
    await first;
    firstCommitted.open();
    const refused = await second.then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused, "the second transaction is refused as a serialization failure").toBeInstanceOf(DatabaseBusyError);
    expect(String((refused as DatabaseBusyError).cause)).toMatch(/TransactionWriteConflict/);
    expect(finished, "every statement of both went through: the refusal came at the second COMMIT, the case that leaked").toEqual([true, true]);

    const rows = await client.$queryRawUnsafe<{ id: number; on_call: boolean }[]>("select id, on_call from on_call order by id");
    expect(rows, "only the first transaction's write stands").toEqual([
      { id: 1, on_call: false },
      { id: 2, on_call: true },
    ]);
    // The refused transaction's connection is back in the pool: closing the pool does not wait for it.
    expect(await within(client.$disconnect(), 5_000), "$disconnect returns (a leaked connection makes it wait for ever)").toBe("done");
    db = undefined;
  });
});
