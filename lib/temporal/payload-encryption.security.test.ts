// With ZAP_PAYLOAD_KEY set, Temporal's history holds ciphertext: whoever can
// read the namespace (the Web UI, `temporal workflow show`, a leaked backup)
// sees neither the task, the system prompt, tool arguments nor tool results,
// and the run works as before.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, Connection } from "@temporalio/client";
import { temporal } from "@temporalio/proto";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { ENCRYPTED_ENCODING } from "./encryption-codec";

let h: EngineHarness;
let raw: Client;
let connection: Connection;
beforeAll(async () => {
  h = await startEngineHarness({ env: { ZAP_PAYLOAD_KEY: "payload-key-for-tests-0123456789abcdef" } });
  connection = await Connection.connect({ address: h.config.temporal.address });
  // Reads history as an outsider does: no codec, no key.
  raw = new Client({ connection });
});
afterAll(async () => {
  await connection?.close();
  await h?.stop();
});

describe("the encrypting payload codec", () => {
  it("keeps the task, the system prompt, tool arguments and results out of Temporal's history", async () => {
    const marker = randomUUID().slice(0, 8);
    const prompt = `secret-prompt-${marker}`;
    const task = `secret-task-${marker}`;
    const graph = singleAgentGraph({ systemPrompt: `You are ${prompt}.`, tools: ["calculator"] });
    const { runId } = await h.engine.startRun({ graph, task: `${task}\ntool calculator {"expression":"1234*5678"}\nanswer: done` });
    const summary = await waitForStatus(h.engine, runId, ["completed"]);
    expect(summary.output).toBe("done");
    const toolMessage = (await h.engine.getHistory(runId)).find((m) => m.role === "tool");
    expect(toolMessage?.content, "the tool really ran (the ledger keeps its result)").toContain("7006652");

    const history = await raw.workflow.getHandle(runId).fetchHistory();
    const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString("latin1");
    expect(bytes, "payloads are marked encrypted").toContain(ENCRYPTED_ENCODING);
    const secrets = { "the task": task, "the system prompt": prompt, "the tool arguments": "1234*5678", "the tool result": "7006652" };
    for (const [what, text] of Object.entries(secrets)) expect(bytes.includes(text), `${what} readable in Temporal's history`).toBe(false);
  });
});
