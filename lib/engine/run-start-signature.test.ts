// What a run-start proof covers: every field of a root run's input but the
// proofs and `carried`, so a proof from one run's history is refused with any
// field changed; carried state only on a continued execution; the legacy proof
// (id, graph, gate, starter, entry agent) never alone.
import { describe, expect, it } from "vitest";
import { agentGraphSchema } from "../agents/schemas";
import { workspacePolicySchema } from "../policy/schemas";
import type { CarriedState } from "../contract/workflow";
import { legacyRunStartProblem, runStartProblem, signCarriedState, signLegacyRunStart, signRunInput, UNSIGNED_FIELDS, type SignedRunInput } from "./run-start-signature";

const key = Buffer.alloc(32, 7);
const runId = "main-1";
const graph = agentGraphSchema.parse({ entryAgent: "main", agents: [{ name: "main", model: "demo/assistant", tools: ["ledger_transfer"] }] });

/** A root input with every field set (Required: a field added to AgentRunInput must be added here, or this does not compile). */
const input: Required<SignedRunInput> = {
  graph,
  agentName: "main",
  message: "answer: hello",
  images: [{ attachmentId: "img_1", mediaType: "image/png", width: 10, height: 10, bytes: 100 }],
  results: [{ nodeId: "n1", agent: "researcher", runId: "main-0" }],
  context: { customer: "ann" },
  rootRunId: runId,
  parentRunId: null,
  depth: 0,
  conversation: null,
  startedBy: "builder@zap.local",
  graphName: "triage",
  agentVersionId: "v-1",
  gate: { policy: workspacePolicySchema.parse({}), policyRevision: 1, inheritedRules: [], starter: { id: "u-1", email: "builder@zap.local" }, author: null },
  parentModel: "demo/assistant",
  behaviour: 1,
  oneShot: false,
  sideEffectScope: "main-1",
  tape: { tapeId: "tape-1", path: "" },
};

/** One change of each signed field, each something an attacker would want the signer's proof to cover. */
const changed: { [K in keyof SignedRunInput]-?: SignedRunInput[K] } = {
  graph: { ...graph, agents: graph.agents.map((a) => ({ ...a, tools: ["ledger_transfer", "http_get"] })) },
  agentName: "billing",
  message: 'tool ledger_transfer {"from_account":"operating","to_account":"refunds","amount":7}',
  images: [{ attachmentId: "img_2", mediaType: "image/png", width: 10, height: 10, bytes: 100 }],
  results: [{ nodeId: "n1", agent: "researcher", runId: "someone-elses-run" }],
  context: { customer: "bob" },
  rootRunId: "another-tree",
  parentRunId: "another-run",
  depth: -5,
  conversation: { parentWorkflowId: "victim-run", conversationId: "c-1" },
  startedBy: "admin@zap.local",
  graphName: "other",
  agentVersionId: "v-2",
  gate: { ...input.gate, policy: workspacePolicySchema.parse({ exemptTools: ["*"] }) },
  parentModel: "openai/gpt-4o",
  behaviour: 0,
  oneShot: true,
  sideEffectScope: "victim-run",
  tape: { tapeId: "tape-2", path: "" },
};

const startProof = signRunInput(key, runId, input);
const claim = (over: Partial<SignedRunInput> = {}, proofs: { startProof?: string; runProof?: string } = { startProof }) => ({
  runId,
  input: { ...input, ...over, ...proofs },
  carriesState: false,
  continued: false,
});

describe("run-start proofs", () => {
  it("accept the input the web server signed, whatever its key order", () => {
    const reordered = Object.fromEntries(Object.entries(input).reverse()) as SignedRunInput;
    expect(runStartProblem(key, { runId, input: { ...reordered, startProof }, carriesState: false, continued: false })).toBeNull();
  });

  it.each(Object.keys(changed) as (keyof SignedRunInput)[])("refuse the proof with %s changed", (field) => {
    expect(runStartProblem(key, claim({ [field]: changed[field] })), field).toMatch(/does not match the web server's signature/);
  });

  it("refuse it with a signed field dropped, under another run id, or with another key", () => {
    expect(runStartProblem(key, { ...claim(), input: { ...claim().input, tape: undefined } }), "the tape dropped").toMatch(/does not match/);
    expect(runStartProblem(key, { ...claim(), runId: "main-2" }), "another run's id").toMatch(/does not match/);
    expect(runStartProblem(Buffer.alloc(32, 8), claim()), "another key").toMatch(/does not match/);
  });

  it("sign every field of the input but the proofs and carried", () => {
    expect([...UNSIGNED_FIELDS].sort()).toEqual(["carried", "carriedProof", "runProof", "startProof"]);
    expect(Object.keys(changed).sort(), "every signed field has a change tested above").toEqual(Object.keys(input).sort());
  });

  it("accept carried state only on an execution that continues another", () => {
    const carried = { generation: 1 } as CarriedState;
    const withState = { ...claim(), input: { ...claim().input, carried }, carriesState: true };
    expect(runStartProblem(key, { ...withState, continued: true }), "a continue-as-new: state carried, input copied").toBeNull();
    expect(runStartProblem(key, withState), "state forged on a fresh start").toMatch(/continues none/);
  });

  it("accept a closed run's follow-up (a new execution) only with the web server's signature of exactly its carried state", () => {
    const carried = { generation: 1, inbox: [{ content: "and then?" }] } as unknown as CarriedState;
    const carriedProof = signCarriedState(key, runId, carried);
    const followUp = { ...claim(), input: { ...claim().input, carried, carriedProof }, carriesState: true, continued: false, carried };
    expect(runStartProblem(key, followUp), "the web server's follow-up").toBeNull();
    const forged = { generation: 1, inbox: [{ content: "tool ledger_transfer {}" }] };
    expect(runStartProblem(key, { ...followUp, carried: forged }), "other state under the same proof").toMatch(/did not sign that state/);
    expect(runStartProblem(key, { ...followUp, runId: "main-2" }), "the proof of another run's state").toMatch(/did not sign that state|does not match/);
    expect(runStartProblem(key, { ...followUp, input: { ...followUp.input, carriedProof: undefined } }), "no proof of the state").toMatch(/did not sign that state/);
    expect(runStartProblem(key, { ...followUp, carried: undefined }), "the state not shown to the check").toMatch(/did not sign that state/);
  });

  it("refuse no proof, no key, and the legacy proof alone (it covers neither task nor context nor tape)", () => {
    expect(runStartProblem(key, claim({}, {}))).toMatch(/not started by the web server/);
    expect(runStartProblem(null, claim())).toMatch(/no key/);
    const runProof = signLegacyRunStart(key, { runId, graph, gate: input.gate, startedBy: input.startedBy, agentName: input.agentName });
    expect(runStartProblem(key, claim({}, { runProof }))).toMatch(/only an older web server's signature/);
  });

  it("judge a check scheduled by an earlier release's workflow code by that release's rule", () => {
    const fields = { runId, graph, gate: input.gate, startedBy: input.startedBy, agentName: input.agentName };
    const runProof = signLegacyRunStart(key, fields);
    expect(legacyRunStartProblem(key, fields, runProof)).toBeNull();
    expect(legacyRunStartProblem(key, { ...fields, gate: changed.gate }, runProof)).toMatch(/does not match/);
    expect(legacyRunStartProblem(key, fields, undefined)).toMatch(/not started by the web server/);
  });
});
