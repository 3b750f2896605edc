// The playground's model call in the worker (issue 27 §1): the engine's demo
// model answers the edited conversation, tool calls come back as proposals
// (the activity has no way to execute one: it is given only the describer),
// a model that cannot be called ends the call with its sentence, a transient
// failure is left to Temporal's retries.
import { MockActivityEnvironment } from "@temporalio/testing";
import { DefaultLogger } from "@temporalio/worker";
import { ApplicationFailure } from "@temporalio/activity";
import { describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/prisma";
import type { PlaygroundCallOutput, PlaygroundCallRequest, PlaygroundFailedOutput } from "../../lib/playground/contract";
import { createDemoModel } from "../models/demo";
import type { ModelRegistry } from "../models/registry";
import { ModelCallError, type ModelProvider } from "../models/types";
import { createPlaygroundActivities } from "./playground";

// Messages without images or plan results never reach the database.
const noDb = new Proxy({}, { get: () => { throw new Error("the database was used"); } }) as Db;
const registry = (provider: ModelProvider): ModelRegistry => ({ resolve: (id) => ({ provider, modelName: id.split("/").slice(1).join("/") }) });
const describer = { describe: async () => ({ tools: [{ name: "ledger_transfer", description: "Moves money", parameters: { type: "object" } }], errors: [] }) };

const request = (content: string): PlaygroundCallRequest => ({
  kind: "call",
  label: "test",
  agentName: "treasurer",
  model: "demo/treasurer",
  temperature: 0,
  maxOutputTokens: 100,
  messages: [{ role: "system", content: "You manage the ledger." }, { role: "user", content }],
  tools: [{ name: "ledger_transfer", description: "Moves money", parameters: { type: "object" } }],
  timeoutMs: 10_000,
});

type Answer = PlaygroundCallOutput | PlaygroundFailedOutput;
const env = () => new MockActivityEnvironment({ activityId: "1" }, { logger: new DefaultLogger("ERROR") });

describe("playgroundInference", () => {
  it("returns the demo model's proposed tool call, with usage, and nothing executes it", async () => {
    const { playgroundInference } = createPlaygroundActivities({ db: noDb, models: registry(createDemoModel({ latencyMs: 0 })), tools: describer });
    const output: Answer = await env().run(playgroundInference, request('tool ledger_transfer {"from_account":"refunds","to_account":"operating","amount":5}'));
    expect(output.kind).toBe("call");
    if (output.kind !== "call") return;
    expect(output.toolCalls.map((c) => [c.name, JSON.parse(c.arguments) as unknown])).toEqual([["ledger_transfer", { from_account: "refunds", to_account: "operating", amount: 5 }]]);
    expect(output.usage.inputTokens).toBeGreaterThan(0);
  });

  it("answers an edited answer line as the engine's demo model would", async () => {
    const { playgroundInference } = createPlaygroundActivities({ db: noDb, models: registry(createDemoModel({ latencyMs: 0 })), tools: describer });
    const answered: Answer = await env().run(playgroundInference, request("answer: Edited."));
    expect(answered).toMatchObject({ kind: "call", content: "Edited.", toolCalls: [] });
  });

  it("a model that cannot be called ends the call with its sentence; a transient failure is thrown for a retry", async () => {
    const failing = (error: Error): ModelProvider => ({ generate: () => Promise.reject(error) });
    const fatal = createPlaygroundActivities({ db: noDb, models: registry(failing(new ModelCallError("OPENAI_API_KEY is not set on the worker", false))), tools: describer });
    const failed: Answer = await env().run(fatal.playgroundInference, request("hi"));
    expect(failed).toEqual({ kind: "failed", message: "OPENAI_API_KEY is not set on the worker" });
    const transient = createPlaygroundActivities({ db: noDb, models: registry(failing(new ModelCallError("rate limited", true))), tools: describer });
    const error = await env().run(transient.playgroundInference, request("hi")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).nonRetryable).toBe(false);
  });

  it("describes the agent's tools through the engine's describer", async () => {
    const { describePlaygroundTools } = createPlaygroundActivities({ db: noDb, models: registry(createDemoModel()), tools: describer });
    const agent = { name: "treasurer" } as Parameters<typeof describePlaygroundTools>[0]["agent"];
    expect(await describePlaygroundTools({ kind: "describe", agent, subAgents: [] })).toEqual({ kind: "describe", tools: [{ name: "ledger_transfer", description: "Moves money", parameters: { type: "object" } }], errors: [] });
  });
});
