// Checks the audit hash chain: every row's hash recomputed from its content and
// its predecessor's hash, sequence numbers dense, the head row pointing at the
// last row (so removing the newest rows is caught too), and no row written
// since the chain began left outside it.
//
// Incremental: a check that passes stores a checkpoint (the last verified
// position and its hash) and the next check hashes only the rows after it, so
// opening the audit page does not hash the whole table every time. The
// checkpoint is row 2 of audit_chain_head (row 1 is the head the writers
// extend; the verifier alone writes row 2). Rows are append-only, so the row at
// a verified position never changes: when it no longer matches its checkpoint,
// the whole chain is verified again from scratch, and if that finds nothing
// (every hash after an edit was rewritten to match) the check still fails.
// `full` verifies from scratch on demand, ignoring and then resetting the
// checkpoint; that is the check that finds an edit before the checkpoint.
import type { Db } from "../db/prisma";
import { chainHash, GENESIS_HASH } from "./chain";

export interface ChainReport {
  verified: boolean;
  /** Rows in the chain. */
  rows: number;
  /** Rows written before the chain existed (not covered). */
  unchained: number;
  /**
   * The first row that does not check out, and why: `seq` is its chain
   * position (null for a row that has none), `id` the row's id when it exists.
   */
  broken: { seq: number | null; id: string | null; problem: string } | null;
  /**
   * The chain's head as checked. The chain is unkeyed, so someone who can write
   * the database could rewrite every hash after an edit; copying the head to a
   * system they cannot write (a log shipper, a ticket, a daily e-mail) pins
   * history up to it: a rewritten chain no longer ends in the copied hash.
   */
  head: { seq: number; hash: string } | null;
  /** "full": every row was hashed; "incremental": only the rows after `from`. */
  mode: "full" | "incremental";
  /** The position this check started after (0 for a full check). */
  from: number;
  /** Rows whose hash this check recomputed: the work it did. */
  hashed: number;
}

export interface VerifyOptions {
  /** Verify every row from the start, whatever the checkpoint says (and reset it if the chain checks out). */
  full?: boolean;
}

const HEAD_ID = 1;
const CHECKPOINT_ID = 2;
const PAGE = 5_000;
const ROW_SELECT = { id: true, actorId: true, action: true, target: true, details: true, createdAt: true, seq: true, prevHash: true, hash: true } as const;

type ChainRow = { id: string; actorId: string | null; action: string; target: string | null; details: string; createdAt: Date; seq: number | null; prevHash: string | null; hash: string | null };

/** Whether a row's stored hash is the one its content and predecessor hash give. */
function rowHashMatches(row: ChainRow): boolean {
  return row.seq !== null && row.prevHash !== null && chainHash(row.prevHash, { ...row, seq: row.seq }) === row.hash;
}

/**
 * Rows without a chain position written after the chain began (at or after
 * its first row): every row since then is appended through the chain, so such
 * a row was inserted behind the app's back. Older ones predate the chain.
 */
async function unchainedRows(db: Db): Promise<{ legacy: number; strays: { id: string; action: string; createdAt: Date }[] }> {
  const first = await db.auditEvent.findUnique({ where: { seq: 1 }, select: { createdAt: true } });
  if (!first) return { legacy: await db.auditEvent.count({ where: { seq: null } }), strays: [] };
  const [legacy, strays] = await Promise.all([
    db.auditEvent.count({ where: { seq: null, createdAt: { lt: first.createdAt } } }),
    db.auditEvent.findMany({ where: { seq: null, createdAt: { gte: first.createdAt } }, orderBy: { createdAt: "asc" }, take: 10, select: { id: true, action: true, createdAt: true } }),
  ]);
  return { legacy, strays };
}

async function saveCheckpoint(db: Db, at: { seq: number; hash: string }): Promise<void> {
  // Only an optimisation for the next check: a lost race with another verifier changes nothing.
  await db.auditChainHead.upsert({ where: { id: CHECKPOINT_ID }, create: { id: CHECKPOINT_ID, ...at }, update: at }).catch(() => undefined);
}

/**
 * A broken chain drops the checkpoint: every later check starts from scratch
 * and keeps naming the break (a check that passed before the break was found
 * must not let the incremental checks after it pass again).
 */
async function broken(db: Db, report: ChainReport): Promise<ChainReport> {
  await db.auditChainHead.deleteMany({ where: { id: CHECKPOINT_ID } }).catch(() => undefined);
  return report;
}

export async function verifyAuditChain(db: Db, options: VerifyOptions = {}): Promise<ChainReport> {
  // The head first: rows appended while this runs lie beyond it and are left for the next check.
  const head = await db.auditChainHead.findUnique({ where: { id: HEAD_ID } });
  if (!head) return { verified: false, rows: 0, unchained: 0, broken: { seq: 0, id: null, problem: "the chain head is missing" }, head: null, mode: "full", from: 0, hashed: 0 };
  const checked = { seq: head.seq, hash: head.hash };
  const { legacy: unchained, strays } = await unchainedRows(db);

  let from = 0;
  let prevHash = GENESIS_HASH;
  let rewritten: string | null = null;
  const checkpoint = options.full ? null : await db.auditChainHead.findUnique({ where: { id: CHECKPOINT_ID } });
  if (checkpoint && checkpoint.seq > 0) {
    if (checkpoint.seq > head.seq) {
      const problem = `the chain was verified up to row ${checkpoint.seq} but now ends at row ${head.seq}`;
      return { verified: false, rows: head.seq, unchained, broken: { seq: head.seq + 1, id: null, problem }, head: checked, mode: "incremental", from: checkpoint.seq, hashed: 0 };
    }
    const row = await db.auditEvent.findUnique({ where: { seq: checkpoint.seq }, select: ROW_SELECT });
    if (row && row.hash === checkpoint.hash && rowHashMatches(row)) {
      from = checkpoint.seq;
      prevHash = checkpoint.hash;
    } else {
      rewritten = `row ${checkpoint.seq} is not the row verified there before: the chain was changed at or before it`;
    }
  }
  const mode = from > 0 ? "incremental" : "full";

  let expectedSeq = from + 1;
  let hashed = 0;
  const report = (broken: ChainReport["broken"]): ChainReport => ({ verified: broken === null, rows: expectedSeq - 1, unchained, broken, head: checked, mode, from, hashed });
  for (;;) {
    const page = await db.auditEvent.findMany({ where: { seq: { gte: expectedSeq, lte: head.seq } }, orderBy: { seq: "asc" }, take: PAGE, select: ROW_SELECT });
    for (const row of page) {
      const seq = row.seq ?? 0;
      const fail = (problem: string) => report({ seq, id: row.id, problem });
      if (seq !== expectedSeq) return broken(db, report({ seq: expectedSeq, id: null, problem: `row ${expectedSeq} is missing` }));
      if (row.prevHash !== prevHash) return broken(db, fail("it does not follow the row before it"));
      hashed += 1;
      if (chainHash(prevHash, { ...row, seq }) !== row.hash) return broken(db, fail("its content was changed after it was written"));
      prevHash = row.hash;
      expectedSeq += 1;
    }
    if (page.length < PAGE) break;
  }
  if (head.seq !== expectedSeq - 1 || head.hash !== prevHash) {
    return broken(db, report({ seq: expectedSeq, id: null, problem: `the chain records ${head.seq} rows but ${expectedSeq - 1} are present` }));
  }
  if (rewritten) return report({ seq: checkpoint?.seq ?? null, id: null, problem: rewritten });
  const stray = strays[0];
  if (stray) {
    const others = strays.length > 1 ? ` (and ${strays.length - 1} more)` : "";
    return report({ seq: null, id: stray.id, problem: `row ${stray.id} (${stray.action}, ${stray.createdAt.toISOString()}) has no place in the chain though it was written after the chain began${others}` });
  }
  await saveCheckpoint(db, checked);
  return report(null);
}
