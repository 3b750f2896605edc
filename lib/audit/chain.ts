// The audit hash chain: each row's hash covers the previous row's hash and the
// row's own content, so editing, removing or inserting a row anywhere breaks
// every hash after it. Pure functions, shared by the writer and the verifier.
import { createHash } from "node:crypto";

/** The hash the chain starts from (the head row the migration creates holds it at seq 0). */
export const GENESIS_HASH = "0".repeat(64);

export interface ChainedContent {
  seq: number;
  id: string;
  actorId: string | null;
  action: string;
  target: string | null;
  details: string;
  createdAt: Date;
}

/** SHA-256 (hex) of the previous hash and the row's fields in a fixed order. */
export function chainHash(prevHash: string, row: ChainedContent): string {
  const content = JSON.stringify([row.seq, row.id, row.actorId, row.action, row.target, row.details, row.createdAt.getTime()]);
  return createHash("sha256").update(prevHash).update("\n").update(content).digest("hex");
}
