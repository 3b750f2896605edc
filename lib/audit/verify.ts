// Checks the audit hash chain end to end: every row's hash recomputed from its
// content and its predecessor's hash, sequence numbers dense, and the head row
// pointing at the last row (so removing the newest rows is caught too).
import type { Db } from "../db/prisma";
import { chainHash, GENESIS_HASH } from "./chain";

export interface ChainReport {
  verified: boolean;
  /** Rows in the chain. */
  rows: number;
  /** Rows written before the chain existed (not covered). */
  unchained: number;
  /** The first row that does not check out, and why. */
  broken: { seq: number; problem: string } | null;
  /**
   * The chain's head as checked. The chain is unkeyed, so someone who can write
   * the database could rewrite every hash after an edit; copying the head to a
   * system they cannot write (a log shipper, a ticket, a daily e-mail) pins
   * history up to it: a rewritten chain no longer ends in the copied hash.
   */
  head: { seq: number; hash: string } | null;
}

const PAGE = 5_000;

export async function verifyAuditChain(db: Db): Promise<ChainReport> {
  // The head first: rows appended while this runs lie beyond it and are left for the next check.
  const head = await db.auditChainHead.findUnique({ where: { id: 1 } });
  if (!head) return { verified: false, rows: 0, unchained: 0, broken: { seq: 0, problem: "the chain head is missing" }, head: null };
  const checked = { seq: head.seq, hash: head.hash };
  const unchained = await db.auditEvent.count({ where: { seq: null } });
  let prevHash = GENESIS_HASH;
  let expectedSeq = 1;
  let rows = 0;
  for (;;) {
    const page = await db.auditEvent.findMany({
      where: { seq: { gte: expectedSeq, lte: head.seq } },
      orderBy: { seq: "asc" },
      take: PAGE,
      select: { id: true, actorId: true, action: true, target: true, details: true, createdAt: true, seq: true, prevHash: true, hash: true },
    });
    for (const row of page) {
      const seq = row.seq ?? 0;
      const fail = (problem: string): ChainReport => ({ verified: false, rows, unchained, broken: { seq, problem }, head: checked });
      if (seq !== expectedSeq) return fail(`row ${expectedSeq} is missing`);
      if (row.prevHash !== prevHash) return fail("it does not follow the row before it");
      if (chainHash(prevHash, { ...row, seq }) !== row.hash) return fail("its content was changed after it was written");
      prevHash = row.hash;
      expectedSeq += 1;
      rows += 1;
    }
    if (page.length < PAGE) break;
  }
  if (head.seq !== rows || head.hash !== prevHash) {
    return { verified: false, rows, unchained, broken: { seq: rows + 1, problem: `the chain records ${head.seq} rows but ${rows} are present` }, head: checked };
  }
  return { verified: true, rows, unchained, broken: null, head: checked };
}
