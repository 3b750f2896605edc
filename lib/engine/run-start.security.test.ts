// Run inputs are authenticated (issue 23 §2): anyone who can start workflows on
// the task queue used to be able to start a run whose gate exempts every tool,
// and its transfer ran. The worker now checks the web server's signature of a
// root run's input before the run does anything. The signature covers the
// whole input (issue 38 §4): a proof read from a run's history and reused
// under its id with another task, context, tape or side-effect scope is refused.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkflowFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { eventually, singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { AGENT_WORKFLOW_TYPE, inputQuery, snapshotQuery } from "../contract/definitions";
import type { AgentRunInput } from "../contract/workflow";
import { workspacePolicySchema } from "../policy/schemas";
import { agentGraphSchema } from "../agents/schemas";
import { configuredKey } from "../crypto/keys";
import { signLegacyRunStart, signRunInput } from "./run-start-signature";

let h: EngineHarness;
beforeAll(async () => {
  h = await startEngineHarness();
});
afterAll(async () => {
  await h?.stop();
});

const transfer = 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":7}\nanswer: moved';
/** What an attacker sends: a gate whose policy exempts every tool, so nothing asks an approver. */
function forgedInput(runId: string): AgentRunInput {
  const graph = agentGraphSchema.parse(singleAgentGraph({ tools: ["ledger_transfer"] }, { followUpWindowSeconds: 0 }));
  return {
    graph,
    agentName: graph.entryAgent,
    message: transfer,
    context: {},
    rootRunId: runId,
    parentRunId: null,
    depth: 0,
    conversation: null,
    startedBy: "attacker@example.com",
    graphName: null,
    agentVersionId: null,
    gate: { policy: workspacePolicySchema.parse({ exemptTools: ["*"] }), policyRevision: 1, inheritedRules: [], starter: null, author: null },
  };
}

/** Long enough for a refused start to fail (its first workflow task); a run still open after it runs its input. */
const REFUSAL_WITHIN_MS = 20_000;

/** Starts the input straight on the task queue and returns why it failed; a run that did not fail (it ran the input) fails the test, and is ended. */
async function failureOf(runId: string, input: AgentRunInput): Promise<ApplicationFailure> {
  const handle = await h.client.workflow.start(AGENT_WORKFLOW_TYPE, { taskQueue: h.taskQueue, workflowId: runId, args: [input] });
  const ended = await Promise.race([
    handle.result().then(
      () => "completed" as const,
      (e: unknown) => e,
    ),
    new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), REFUSAL_WITHIN_MS)),
  ]);
  if (ended === "still running") await handle.terminate("the test ends a run that should have been refused").catch(() => undefined);
  expect(ended, "the start was refused (the run failed), not run").toBeInstanceOf(WorkflowFailedError);
  const cause = (ended as WorkflowFailedError).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  return cause as ApplicationFailure;
}

describe("a run started straight on the task queue", () => {
  it("without the web server's signature fails unauthenticated and runs nothing", async () => {
    const runId = `main-${randomUUID()}`;
    const failure = await failureOf(runId, forgedInput(runId));
    expect(failure.type).toBe("unauthenticated");
    expect(failure.message).toMatch(/not started by the web server/);
    expect(await h.db.ledgerEntry.count({ where: { runId } }), "the transfer never ran").toBe(0);
    expect(await h.db.toolExecution.count({ where: { runId } })).toBe(0);
    const run = await h.engine.getRun(runId);
    expect(run).toMatchObject({ status: "failed", error: { reason: "unauthenticated" } });
  });

  it("with a signature of another input (the gate widened after signing) fails too", async () => {
    const runId = `main-${randomUUID()}`;
    const forged = forgedInput(runId);
    const honest = { ...forged, gate: { ...forged.gate!, policy: workspacePolicySchema.parse({}) } };
    const startProof = signRunInput(configuredKey(h.config, "approval-decisions"), runId, honest);
    const failure = await failureOf(runId, { ...forged, startProof });
    expect(failure.type).toBe("unauthenticated");
    expect(failure.message).toMatch(/does not match the web server's signature/);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
  });

  it("with only the legacy signature (id, graph, gate, starter, entry agent: what a web server before issue 38 sent) fails, saying so", async () => {
    const runId = `main-${randomUUID()}`;
    const forged = forgedInput(runId);
    const honest = { ...forged, gate: { ...forged.gate!, policy: workspacePolicySchema.parse({}) } };
    const runProof = signLegacyRunStart(configuredKey(h.config, "approval-decisions"), { runId, graph: honest.graph, gate: honest.gate, startedBy: honest.startedBy, agentName: honest.agentName });
    const failure = await failureOf(runId, { ...honest, runProof });
    expect(failure.type).toBe("unauthenticated");
    expect(failure.message).toMatch(/only an older web server's signature/);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
  });

  it("started through the engine (signed), the same graph runs and its transfer waits for an approver", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["ledger_transfer"] }), task: transfer });
    const pending = await eventually(() => h.engine.getPendingApprovals(runId).catch(() => []), (list) => list.length > 0, 20_000, "the transfer's approval request");
    expect(pending.map((a) => a.toolName)).toEqual(["ledger_transfer"]);
    await h.engine.cancelRun(runId);
  });
});

describe("a proof read from a run's history, reused under the run's id with one field changed", () => {
  // A run started through the engine (both proofs), finished and closed: its input, proofs included, is what
  // anyone who can read the namespace's histories sees, and its id may be started again once it is closed.
  let runId = "";
  let signed: AgentRunInput;
  beforeAll(async () => {
    ({ runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["ledger_transfer"] }, { followUpWindowSeconds: 0 }), task: "answer: done", context: { customer: "ann" } }));
    await waitForStatus(h.engine, runId, ["completed"]);
    await h.client.workflow.getHandle(runId).result();
    signed = await h.client.workflow.getHandle(runId).query(inputQuery);
    expect(signed.startProof && signed.runProof, "the engine signed the run (both proofs)").toBeTruthy();
  });

  it.each<[string, Partial<AgentRunInput>]>([
    ["another task (a transfer its signer never asked for)", { message: transfer }],
    ["another context", { context: { customer: "mallory", refundLimit: 1_000_000 } }],
    ["a tape (recorded results instead of execution)", { tape: { tapeId: "tape-of-another-run", path: "" } }],
    ["another side-effect scope (another run's recorded calls)", { sideEffectScope: "main-someone-elses-run" }],
    ["a conversation that answers another run", { conversation: { parentWorkflowId: "main-victim", conversationId: "c-1" } }],
  ])("%s: refused, and runs nothing", async (_, change) => {
    const before = await h.db.ledgerEntry.count({ where: { runId } });
    const failure = await failureOf(runId, { ...signed, ...change });
    expect(failure.type).toBe("unauthenticated");
    expect(failure.message).toMatch(/does not match the web server's signature/);
    expect(await h.db.ledgerEntry.count({ where: { runId } }), "no transfer ran").toBe(before);
  });

  it("its input with carried state (an inbox holding a transfer) the web server did not sign: refused, and runs nothing", async () => {
    // A closed run's follow-up is a new execution Temporal does not record as continued: only the web server's
    // signature of the state it hands over (carriedProof) lets it carry any.
    const snapshot = await h.client.workflow.getHandle(runId).query(snapshotQuery);
    const before = await h.db.ledgerEntry.count({ where: { runId } });
    const failure = await failureOf(runId, { ...signed, carried: { ...snapshot, inbox: [...snapshot.inbox, { content: transfer }] } });
    expect(failure.type).toBe("unauthenticated");
    expect(failure.message).toMatch(/did not sign that state/);
    expect(await h.db.ledgerEntry.count({ where: { runId } }), "no transfer ran").toBe(before);
  });

  it("unchanged, the same input runs again (what the refusals above refuse is the change; its side effects are keyed by the run's id)", async () => {
    const handle = await h.client.workflow.start(AGENT_WORKFLOW_TYPE, { taskQueue: h.taskQueue, workflowId: runId, args: [signed] });
    await expect(handle.result()).resolves.toMatchObject({ status: "completed", output: "done" });
  });
});
