// Run starts are signed by the web server and checked by the worker before a
// run does anything (issue 23 §2): anyone who can start workflows on the task
// queue could otherwise start a run whose gate exempts every tool. The
// signature covers what decides what the run may do — its id, its graph (by
// digest), its approval gate, its starter and entry agent — so a proof taken
// from one run is worth nothing on another input. Child runs are started by a
// checked run (Temporal records their parent; a client cannot), so they carry
// no proof of their own. Decisions on approvals are signed with the same key;
// the `kind` field keeps the two kinds of signature apart.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { AgentGraph } from "../agents/schemas";
import type { RunGate } from "../contract/workflow";
import { canonicalJson } from "./decision-signature";

export interface RunStartFields {
  runId: string;
  graph: AgentGraph;
  gate: RunGate | undefined;
  startedBy: string | null;
  agentName: string;
}

function digest(key: Buffer, { runId, graph, gate, startedBy, agentName }: RunStartFields): Buffer {
  const graphDigest = createHash("sha256").update(canonicalJson(graph), "utf8").digest("base64url");
  const canonical = canonicalJson({ kind: "run-start", runId, graphDigest, gate: gate ?? null, startedBy, agentName });
  return createHmac("sha256", key).update(canonical, "utf8").digest();
}

/** The proof (base64url HMAC-SHA256) a run's input carries. */
export function signRunStart(key: Buffer, fields: RunStartFields): string {
  return digest(key, fields).toString("base64url");
}

/** Why a run start is refused, or null when the web server signed exactly this input. */
export function runStartProblem(key: Buffer | null, fields: RunStartFields, proof: string | undefined): string | null {
  if (!key) return "this worker has no key to check run starts (set ZAP_ENCRYPTION_KEY or AUTH_SECRET as on the web server)";
  if (!proof) return "the run was not started by the web server (its input carries no signature): it runs nothing";
  const expected = digest(key, fields);
  const given = Buffer.from(proof, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return "the run's input does not match the web server's signature (its graph, gate or starter was changed): it runs nothing";
  }
  return null;
}
