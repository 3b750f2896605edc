// The PostgreSQL driver adapter, with one gap closed: a transaction whose COMMIT (or ROLLBACK) fails keeps its
// pool connection for ever.
//
// Prisma's transaction manager (client engine, @prisma/client 6.19, transaction-manager.ts) ends a transaction by
// running `COMMIT` through the transaction and then calling its `commit()`, which is what hands the connection back
// to the pool (@prisma/adapter-pg's PgTransaction). When the COMMIT statement itself fails, it throws before
// `commit()` and marks the transaction closed: nothing releases the connection again. Under SERIALIZABLE that is an
// ordinary event — PostgreSQL may cancel a transaction at its COMMIT ("could not serialize access due to read/write
// dependencies among transactions … during commit attempt"), which writeTransaction retries. Each one leaked a
// connection: the pool shrank, and `$disconnect` (pool.end(), which waits for every checked-out connection) never
// returned — the engine harness's stop hung on it in the online-evaluation tests, the connection sitting `idle`
// with COMMIT as its last statement.
import { PrismaPg } from "@prisma/adapter-pg";

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type PgTransaction = Awaited<ReturnType<PgAdapter["startTransaction"]>>;
type SqlQuery = Parameters<PgTransaction["executeRaw"]>[0];

/** The statements that end a transaction, as Prisma's transaction manager sends them. */
const ENDING = new Set(["COMMIT", "ROLLBACK"]);

/** PrismaPg whose transactions give their connection back even when the statement ending them fails. */
export class ReleasingPrismaPg extends PrismaPg {
  override async connect(): Promise<PgAdapter> {
    return releasingTransactions(await super.connect());
  }

  override async connectToShadowDb(): Promise<PgAdapter> {
    return releasingTransactions(await super.connectToShadowDb());
  }
}

function releasingTransactions(adapter: PgAdapter): PgAdapter {
  const start = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) => releasedOnFailedEnd(await start(isolationLevel));
  return adapter;
}

/**
 * Wraps a transaction so that it hands its connection back exactly once: by Prisma's commit()/rollback() as usual,
 * or, when the COMMIT or ROLLBACK statement fails, right there — after a ROLLBACK of its own, so that a connection
 * whose transaction somehow survived the failure never returns to the pool inside it (on one whose transaction is
 * already over, PostgreSQL answers that ROLLBACK with a warning; on a broken one it fails, and the pool drops a
 * connection that can no longer be queried).
 */
export function releasedOnFailedEnd(tx: PgTransaction): PgTransaction {
  const executeRaw = tx.executeRaw.bind(tx);
  const release = tx.rollback.bind(tx);
  const commit = tx.commit.bind(tx);
  let released = false;
  const releaseOnce = async (hand: () => Promise<void>) => {
    if (released) return;
    released = true;
    await hand();
  };
  tx.executeRaw = async (query: SqlQuery) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      if (ENDING.has(query.sql.trim().toUpperCase())) {
        if (!released) await executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] }).catch(() => undefined);
        await releaseOnce(release);
      }
      throw error;
    }
  };
  // A later Prisma that does call commit()/rollback() after the failed statement must not release it twice: the pool
  // may have lent the connection to someone else by then.
  tx.commit = () => releaseOnce(commit);
  tx.rollback = () => releaseOnce(release);
  return tx;
}
