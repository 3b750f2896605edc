// Run starts are signed by the web server and checked by the worker before a
// run does anything (issue 23 §2): anyone who can start workflows on the task
// queue could otherwise start a run whose gate exempts every tool.
//
// What is signed (issue 38 §4): the run's id (its workflow id) and its whole
// input — graph, entry agent, task, images, plan results, context, root and
// parent ids, depth, conversation, starter, saved graph and version, approval
// gate, parent model, behaviour, one-shot, side-effect scope and tape — every
// field but the proofs themselves and `carried`. A proof taken from one run's
// history is worth nothing with anything changed: another task, context, tape
// or side-effect scope under the same id is refused. A field added to
// AgentRunInput later is signed without anyone having to remember it: only
// UNSIGNED_FIELDS are left out. `carried` is the state one execution hands the
// next at continue-as-new, which no web server sees; it is accepted on an
// execution Temporal records as continued from another (which no client can
// set), whose input is otherwise the first execution's, copied — or, when a
// closed run continues with a message (a new execution the web server starts),
// with the web server's own signature of that state (`carriedProof`).
//
// Child runs are started by a checked run (Temporal records their parent; a
// client cannot), so they carry no proof of their own. Decisions on approvals
// are signed with the same key; the `kind` field keeps the signatures apart.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { AgentGraph } from "../agents/schemas";
import type { AgentRunInput, RunGate } from "../contract/workflow";
import { canonicalJson } from "./decision-signature";

/** The input fields a proof does not cover: the proofs, and the state carried across continue-as-new. */
export const UNSIGNED_FIELDS = ["runProof", "startProof", "carried", "carriedProof"] as const;

/** What a run's proof (`startProof`) covers, beside the run's id. */
export type SignedRunInput = Omit<AgentRunInput, (typeof UNSIGNED_FIELDS)[number]>;

/** A root run's start as the worker checks it: its id, its input (without `carried`) and how it came to run. */
export interface RunStartClaim {
  runId: string;
  input: Omit<AgentRunInput, "carried">;
  /** The input carries state of an earlier execution (`carried`). */
  carriesState: boolean;
  /** Temporal records this execution as continued from another one (continue-as-new). */
  continued: boolean;
  /** The carried state itself, passed only when the execution continues none (a closed run's follow-up): checked against `carriedProof`. */
  carried?: unknown;
}

function mac(key: Buffer, canonical: string): Buffer {
  return createHmac("sha256", key).update(canonical, "utf8").digest();
}

function inputDigest(key: Buffer, runId: string, input: SignedRunInput | AgentRunInput): Buffer {
  const signed: Record<string, unknown> = { ...input };
  for (const field of UNSIGNED_FIELDS) delete signed[field];
  return mac(key, canonicalJson({ kind: "run-input", runId, input: signed }));
}

/** The proof of the state a closed run continues with (its follow-up's new execution), carried as `carriedProof`. */
export function signCarriedState(key: Buffer, runId: string, carried: unknown): string {
  return mac(key, canonicalJson({ kind: "run-carried", runId, carried })).toString("base64url");
}

/** The proof (base64url HMAC-SHA256) of a root run's whole input, carried as its `startProof`. */
export function signRunInput(key: Buffer, runId: string, input: SignedRunInput): string {
  return inputDigest(key, runId, input).toString("base64url");
}

function sameMac(proof: string, expected: Buffer): boolean {
  const given = Buffer.from(proof, "base64url");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const NO_KEY = "this worker has no key to check run starts (set ZAP_ENCRYPTION_KEY or AUTH_SECRET as on the web server)";
const UNSIGNED = "the run was not started by the web server (its input carries no signature): it runs nothing";

/** Why a root run's start is refused, or null when the web server signed exactly this input. */
export function runStartProblem(key: Buffer | null, { runId, input, carriesState, continued, carried }: RunStartClaim): string | null {
  if (!key) return NO_KEY;
  if (carriesState && !continued) {
    // A closed run's follow-up: the web server signed the state it hands the new execution.
    const vouched = input.carriedProof !== undefined && carried !== undefined && sameMac(input.carriedProof, Buffer.from(signCarriedState(key, runId, carried), "base64url"));
    if (!vouched) return "the run's input carries the state of an earlier execution, but it continues none and the web server did not sign that state: it runs nothing";
  }
  if (!input.startProof) {
    if (input.runProof) {
      return "the run's input carries only an older web server's signature, which does not cover its task, context or tape: it runs nothing (update the web servers to this release)";
    }
    return UNSIGNED;
  }
  if (!sameMac(input.startProof, inputDigest(key, runId, input))) {
    return "the run's input does not match the web server's signature (its task, context, graph, gate, starter, tape or another field was changed): it runs nothing";
  }
  return null;
}

/**
 * LEGACY (issue 23's signature): the run's id, graph (by digest), gate, starter and entry agent only. Web
 * servers still send it as `runProof` so that workers of earlier releases, which check nothing else, accept
 * their runs during a deploy; this release's workers never accept it alone. Drop it (and LegacyRunStartFields)
 * once no worker older than issue 38 runs.
 */
export interface LegacyRunStartFields {
  runId: string;
  graph: AgentGraph;
  gate: RunGate | undefined;
  startedBy: string | null;
  agentName: string;
}

function legacyDigest(key: Buffer, { runId, graph, gate, startedBy, agentName }: LegacyRunStartFields): Buffer {
  const graphDigest = createHash("sha256").update(canonicalJson(graph), "utf8").digest("base64url");
  return mac(key, canonicalJson({ kind: "run-start", runId, graphDigest, gate: gate ?? null, startedBy, agentName }));
}

/** The legacy proof (`runProof`), for workers of earlier releases; see LegacyRunStartFields. */
export function signLegacyRunStart(key: Buffer, fields: LegacyRunStartFields): string {
  return legacyDigest(key, fields).toString("base64url");
}

/**
 * A check scheduled by workflow code of an earlier release (a run's first workflow task on an old worker,
 * its check activity taken by this release's worker during a deploy): judged by that release's rule, as
 * its own workers would. Once no worker older than issue 38 runs, no such check is scheduled.
 */
export function legacyRunStartProblem(key: Buffer | null, fields: LegacyRunStartFields, proof: string | undefined): string | null {
  if (!key) return NO_KEY;
  if (!proof) return UNSIGNED;
  if (!sameMac(proof, legacyDigest(key, fields))) {
    return "the run's input does not match the web server's signature (its graph, gate or starter was changed): it runs nothing";
  }
  return null;
}
