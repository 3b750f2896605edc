// A real completion streamed to the run stream the conversation view reads
// (issue 26 §2): llama.cpp's llama-server with SmolLM2-135M (provisioned into
// the cache outside the checkout: scripts/lib/local-model.ts) answers through the
// OpenAI-compatible provider; the model call streams (AI SDK streamText), its
// text reaches GET /api/runs/:id/stream as `token` frames before the call is
// recorded as complete, and the frames put together are the message the ledger
// stores. The 135M model's words are whatever it writes: the test asserts the
// transport, not the answer.
//
// Collected as vitest.config.ts says (docs/real-models.md), never skipped.
import { afterAll, beforeAll, expect, it } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { provisionLocalModel, startLlamaServer, type LlamaServer } from "../../scripts/test-support/llama-server";
import { runEventStream, type TokenFrame } from "../../lib/runs/server/event-stream";
import { readMessages } from "../../lib/run-ledger/read";
import { scaledWait } from "../../scripts/test-support/wait-scale";

let llama: LlamaServer;
let h: EngineHarness;
let model = "";
beforeAll(async () => {
  const local = await provisionLocalModel();
  model = `openai-compatible/local/${local.modelName}`;
  llama = await startLlamaServer({ binary: local.server, model: local.model });
  h = await startEngineHarness({ env: { OPENAI_COMPATIBLE_BASE_URL: llama.baseUrl, OPENAI_COMPATIBLE_NAME: "local" } });
}, scaledWait(300_000));
afterAll(async () => {
  await h?.stop();
  await llama?.stop();
});

/** The run stream's frames up to `end`, in arrival order. */
async function readFrames(stream: ReadableStream<Uint8Array>): Promise<{ event: string; data: unknown }[]> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (/^event: end$/m.test(text)) {
      await reader.cancel();
      break;
    }
  }
  return text
    .split("\n\n")
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] }))
    .filter((f): f is { event: string; data: string } => f.event !== undefined && f.data !== undefined)
    .map((f) => ({ event: f.event, data: JSON.parse(f.data) as unknown }));
}

it("streams a real completion as token frames before the call completes, adding up to the stored message", async () => {
  const graph = singleAgentGraph({ model, systemPrompt: "You are a helpful assistant. Answer in three or four full sentences." });
  const { runId } = await h.engine.startRun({ graph, task: "Describe the sea on a windy autumn morning." });
  const frames = await readFrames(await runEventStream(h.db, { runId, since: 0, userId: "llama-token-test", signal: new AbortController().signal }));
  const summary = await waitForStatus(h.engine, runId, ["completed", "failed"]);
  expect(summary.status, summary.error?.message).toBe("completed");

  const tokens = frames.filter((f) => f.event === "token").map((f) => f.data as TokenFrame);
  expect(tokens.length, "a multi-sentence answer at CPU speed is written in several batches").toBeGreaterThanOrEqual(2);
  let text = "";
  for (const t of tokens) text = text.slice(0, t.offset) + t.delta;
  const stored = (await readMessages(h.db, runId)).filter((m) => m.role === "assistant").at(-1);
  expect(typeof stored?.content === "string" ? stored.content.trim() : null).toBe(text.trim());
  expect(frames.findIndex((f) => f.event === "token"), "text arrives before the model call is recorded as complete").toBeLessThan(frames.findIndex((f) => f.event === "inference_completed"));
  expect(tokens.some((t) => !t.done), "partial text was sent while the model was writing").toBe(true);
}, scaledWait(120_000));
