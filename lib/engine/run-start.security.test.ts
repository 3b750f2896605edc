// Run inputs are authenticated (issue 23 §2): anyone who can start workflows on
// the task queue used to be able to start a run whose gate exempts every tool,
// and its transfer ran. The worker now checks the web server's signature of a
// root run's input before the run does anything.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkflowFailedError } from "@temporalio/client";
import { ApplicationFailure } from "@temporalio/common";
import { eventually, singleAgentGraph, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { AGENT_WORKFLOW_TYPE } from "../contract/definitions";
import type { AgentRunInput } from "../contract/workflow";
import { workspacePolicySchema } from "../policy/schemas";
import { agentGraphSchema } from "../agents/schemas";
import { configuredKey } from "../crypto/keys";
import { signRunStart } from "./run-start-signature";

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

async function failureOf(runId: string, input: AgentRunInput): Promise<ApplicationFailure> {
  const handle = await h.client.workflow.start(AGENT_WORKFLOW_TYPE, { taskQueue: h.taskQueue, workflowId: runId, args: [input] });
  const error = await handle.result().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  const cause = (error as WorkflowFailedError).cause;
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
    const signed = forgedInput(runId);
    const honestGate = { ...signed.gate!, policy: workspacePolicySchema.parse({}) };
    const key = configuredKey(h.config, "approval-decisions");
    const runProof = signRunStart(key, { runId, graph: signed.graph, gate: honestGate, startedBy: signed.startedBy, agentName: signed.agentName });
    const failure = await failureOf(runId, { ...signed, runProof });
    expect(failure.type).toBe("unauthenticated");
    expect(failure.message).toMatch(/does not match the web server's signature/);
    expect(await h.db.ledgerEntry.count({ where: { runId } })).toBe(0);
  });

  it("started through the engine (signed), the same graph runs and its transfer waits for an approver", async () => {
    const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["ledger_transfer"] }), task: transfer });
    const pending = await eventually(() => h.engine.getPendingApprovals(runId).catch(() => []), (list) => list.length > 0, 20_000, "the transfer's approval request");
    expect(pending.map((a) => a.toolName)).toEqual(["ledger_transfer"]);
    await h.engine.cancelRun(runId);
  });
});
