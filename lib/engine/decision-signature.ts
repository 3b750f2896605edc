// Decisions on approvals are signed by the web server and checked where they
// are recorded (the worker's recordApprovalOutcome activity): anyone who can
// reach the Temporal namespace can send the decideApproval update, but only a
// holder of the server key can make one that is recorded and applied. Workflow
// code never sees the key (it would be written into history).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { DecideApprovalInput } from "../contract/workflow";

/** How long a signed decision stays valid: enough for retries on a busy worker, too short to keep a captured one. */
export const DECISION_SIGNATURE_WINDOW_MS = 10 * 60 * 1000;

export interface SignedDecisionFields {
  runId: string;
  approvalId: string;
  approved: boolean;
  reason: string | null;
  editedArguments: Record<string, unknown> | null;
  decidedBy: { id: string; email: string; role: string; apiKeyId?: string };
  issuedAt: string;
}

/** JSON with object keys sorted at every level, so both sides hash the same bytes. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

function digest(key: Buffer, fields: SignedDecisionFields): Buffer {
  const { runId, approvalId, approved, reason, editedArguments, decidedBy, issuedAt } = fields;
  const canonical = canonicalJson({ runId, approvalId, approved, reason, editedArguments, decidedBy: { id: decidedBy.id, email: decidedBy.email, role: decidedBy.role, apiKeyId: decidedBy.apiKeyId }, issuedAt });
  return createHmac("sha256", key).update(canonical, "utf8").digest();
}

/** The signature (base64url HMAC-SHA256) of a decision. */
export function signDecision(key: Buffer, fields: SignedDecisionFields): string {
  return digest(key, fields).toString("base64url");
}

/** Why a decision's signature is refused, or null when it is genuine and fresh. */
export function decisionSignatureProblem(key: Buffer | null, fields: SignedDecisionFields, signature: string | undefined, now = Date.now()): string | null {
  if (!key) return "this worker has no key to check decisions (set ZAP_ENCRYPTION_KEY or AUTH_SECRET as on the web server)";
  if (!signature) return "the decision is not signed by the web server";
  const issued = Date.parse(fields.issuedAt);
  if (!Number.isFinite(issued)) return "the decision's signing time is invalid";
  if (now - issued > DECISION_SIGNATURE_WINDOW_MS || issued - now > 60_000) return "the decision's signature has expired; decide again";
  const expected = digest(key, fields);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "the decision is not signed by the web server";
  return null;
}

/** A decision as the web server sends it: the unsigned decision plus its signing time and signature. */
export function signedDecision(key: Buffer, runId: string, unsigned: Omit<DecideApprovalInput, "signature" | "issuedAt">, issuedAt = new Date().toISOString()): DecideApprovalInput {
  const signature = signDecision(key, {
    runId,
    approvalId: unsigned.approvalId,
    approved: unsigned.approved,
    reason: unsigned.reason ?? null,
    editedArguments: unsigned.editedArguments ?? null,
    decidedBy: unsigned.decidedBy,
    issuedAt,
  });
  return { ...unsigned, issuedAt, signature };
}
