// Issue 36 §3: the run diff and the playground cannot be used to tie up a web
// server. A viewer with a key looped `GET /api/runs/compare` over pairs of
// large runs (each answer reads both whole trees and aligns them on the event
// loop), and every GET of the playground's span route started a Temporal
// workflow and an MCP `listTools`, unaudited. Now the expensive reads are
// counted per user and per key (429 with Retry-After), a diff over 60,000
// ledger rows is refused before anything is read (422 saying why), and opening
// a call in the playground is a POST, audited. Through the real route handlers
// with viewers' keys, over ledger rows written as the worker writes them.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorOf, keyRequest, routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "@/scripts/test-support/api-callers";
import { EXPENSIVE_READ_LIMITS } from "@/lib/http/server/read-limits";
import { MAX_COMPARED_ROWS } from "@/lib/runs/server/compare";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

let callers: ApiCallers;
let compareRoute: typeof import("@/app/api/runs/compare/route");
let playgroundRoute: typeof import("@/app/api/runs/[runId]/spans/[spanId]/playground/route");
const noParams = routeParams({});

/**
 * A finished run of an inline graph with `iterations` model-call → tool-call rounds, its rows as the worker's
 * ledger writer stores them: per round an inference and a tool span, three step events and an assistant message.
 */
async function recordedRun(runId: string, iterations: number): Promise<void> {
  const start = Date.UTC(2026, 10, 1);
  await callers.db.run.create({
    data: { id: runId, rootRunId: runId, agentName: "main", task: "look things up", status: "completed", startedAt: new Date(start), endedAt: new Date(start + iterations * 60 + 100) },
  });
  const spans: { runId: string; spanId: string; kind: string; name: string; status: string; startedAt: Date; endedAt: Date; data: string }[] = [];
  const events: { runId: string; seq: number; type: string; at: Date; data: string; bytes: number }[] = [];
  const messages: { runId: string; index: number; role: string; data: string }[] = [
    { runId, index: 0, role: "system", data: JSON.stringify({ role: "system", content: "You look things up." }) },
    { runId, index: 1, role: "user", data: JSON.stringify({ role: "user", content: "look things up" }) },
  ];
  const event = (at: number, body: Record<string, unknown>) => {
    const data = JSON.stringify({ ...body, seq: events.length + 1, at: new Date(at).toISOString() });
    events.push({ runId, seq: events.length + 1, type: String(body.type), at: new Date(at), data, bytes: data.length });
  };
  event(start, { type: "run_started", agentName: "main", task: "look things up", depth: 0 });
  for (let i = 1; i <= iterations; i++) {
    const t = start + i * 60;
    const args = JSON.stringify({ query: `topic ${i}` });
    spans.push({ runId, spanId: `i${i}`, kind: "inference", name: "demo/test", status: "ok", startedAt: new Date(t), endedAt: new Date(t + 20), data: JSON.stringify({ tokens: { inputTokens: 100, outputTokens: 20 }, attempts: 1 }) });
    spans.push({ runId, spanId: `t${i}`, kind: "tool", name: "search_notes", status: "ok", startedAt: new Date(t + 21), endedAt: new Date(t + 50), data: JSON.stringify({ attempts: 1, attributes: { callId: `call_${i}`, outcome: "ok" } }) });
    event(t + 20, { type: "inference_completed", iteration: i, model: "demo/test", usage: { inputTokens: 100, outputTokens: 20 }, latencyMs: 20, toolCalls: 1, attempts: 1 });
    event(t + 21, { type: "tool_call_started", iteration: i, callId: `call_${i}`, tool: "search_notes", arguments: args });
    event(t + 50, { type: "tool_call_completed", iteration: i, callId: `call_${i}`, tool: "search_notes", outcome: "ok", durationMs: 29, attempts: 1, result: `{"notes":["note ${i}"]}` });
    messages.push({ runId, index: messages.length, role: "assistant", data: JSON.stringify({ role: "assistant", content: `Looking up topic ${i}.`, tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "search_notes", arguments: args } }] }) });
  }
  event(start + iterations * 60 + 100, { type: "run_completed", output: "done" });
  for (let k = 0; k < spans.length; k += 2000) await callers.db.runSpan.createMany({ data: spans.slice(k, k + 2000) });
  for (let k = 0; k < events.length; k += 2000) await callers.db.runEvent.createMany({ data: events.slice(k, k + 2000) });
  for (let k = 0; k < messages.length; k += 2000) await callers.db.runMessage.createMany({ data: messages.slice(k, k + 2000) });
  await callers.db.run.update({ where: { id: runId }, data: { lastEventSeq: events.length, messageCount: messages.length } });
}

/** A finished run whose ledger holds `count` step events (the cheapest rows to write in bulk), and nothing else. */
async function eventHeavyRun(runId: string, count: number): Promise<void> {
  const start = Date.UTC(2026, 10, 2);
  await callers.db.run.create({ data: { id: runId, rootRunId: runId, agentName: "main", task: "look things up", status: "completed", startedAt: new Date(start), endedAt: new Date(start + count) } });
  for (let from = 0; from < count; from += 5_000) {
    const data = Array.from({ length: Math.min(5_000, count - from) }, (_, k) => {
      const seq = from + k + 1;
      const body = JSON.stringify({ type: "tool_call_started", iteration: seq, callId: `call_${seq}`, tool: "search_notes", arguments: "{}", seq, at: new Date(start + seq).toISOString() });
      return { runId, seq, type: "tool_call_started", at: new Date(start + seq), data: body, bytes: body.length };
    });
    await callers.db.runEvent.createMany({ data });
  }
  await callers.db.run.update({ where: { id: runId }, data: { lastEventSeq: count } });
}

const compare = (holder: KeyHolder, a: string, b: string) => compareRoute.GET(keyRequest(holder.token, `/api/runs/compare?a=${a}&b=${b}`), noParams);
const openInPlayground = (holder: KeyHolder, runId: string, spanId: string) =>
  playgroundRoute.POST(keyRequest(holder.token, `/api/runs/${runId}/spans/${spanId}/playground`, { method: "POST" }), routeParams({ runId, spanId }));

beforeAll(async () => {
  callers = await startApiCallers();
  compareRoute = await import("@/app/api/runs/compare/route");
  playgroundRoute = await import("@/app/api/runs/[runId]/spans/[spanId]/playground/route");
  await recordedRun("small-a", 3);
  await recordedRun("small-b", 4);
});
afterAll(async () => callers?.stop());

describe("the run diff", () => {
  it(`a viewer's key looping GET /api/runs/compare gets 429 with Retry-After past ${EXPENSIVE_READ_LIMITS["runs.compare"].points} a minute; another viewer is not held up`, async () => {
    const looper = await callers.holder("viewer", "looper");
    const { points } = EXPENSIVE_READ_LIMITS["runs.compare"];
    for (let i = 0; i < points; i++) {
      const response = await compare(looper, "small-a", "small-b");
      expect(response.status, `comparison ${i + 1}: ${await response.clone().text()}`).toBe(200);
    }
    const refused = await compare(looper, "small-a", "small-b");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await errorOf(refused)).message).toMatch(new RegExp(`^At most ${points} run comparisons per 60 s for each user and API key: try again in \\d+ s$`));
    const other = await callers.holder("viewer", "bystander");
    expect((await compare(other, "small-a", "small-b")).status, "counted per key: another caller is not held up").toBe(200);
  });

  it(`a pair holding more than ${MAX_COMPARED_ROWS.toLocaleString("en-US")} ledger rows is refused with 422 saying why, before either tree is read`, async () => {
    await eventHeavyRun("large-a", 30_008);
    await eventHeavyRun("large-b", 30_008);
    const viewer = await callers.holder("viewer", "differ");
    const started = performance.now();
    const refused = await compare(viewer, "large-a", "large-b");
    const elapsed = performance.now() - started;
    expect(refused.status, await refused.clone().text()).toBe(422);
    const error = await errorOf(refused);
    expect(error.message).toBe(
      `Too large to compare: these runs hold 60,016 ledger rows (large-a: 30,008, large-b: 30,008); a comparison reads at most ${MAX_COMPARED_ROWS.toLocaleString("en-US")}. Compare sub-runs or shorter runs.`,
    );
    expect(error.issues).toEqual([
      { path: "a", message: "30008 ledger rows" },
      { path: "b", message: "30008 ledger rows" },
    ]);
    expect(elapsed, "refused from counts, not after reading both trees").toBeLessThan(5_000);
  });
});

describe("the playground's tool discovery", () => {
  it("is a POST, audited as playground.opened with the key; GET no longer opens a call", async () => {
    expect("GET" in playgroundRoute, "no GET handler: a prefetch or an image tag cannot start the describing workflow").toBe(false);
    const viewer = await callers.holder("viewer", "opener");
    const response = await openInPlayground(viewer, "small-a", "i2");
    expect(response.status, await response.clone().text()).toBe(200);
    const call = (await response.json()) as { runId: string; spanId: string; messages: { role: string }[]; toolNotes: string[] };
    expect(call).toMatchObject({ runId: "small-a", spanId: "i2" });
    expect(call.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    const audit = await callers.db.auditEvent.findFirstOrThrow({ where: { action: "playground.opened", actorId: viewer.id } });
    expect(audit.target).toBe("small-a/i2");
    expect(JSON.parse(audit.details)).toMatchObject({ agentName: "main", describesTools: false, apiKeyId: viewer.apiKeyId });
  });

  it(`past ${EXPENSIVE_READ_LIMITS["playground.open"].points} opens a minute, a key gets 429 with Retry-After`, async () => {
    const viewer = await callers.holder("viewer", "prober");
    const { points } = EXPENSIVE_READ_LIMITS["playground.open"];
    for (let i = 0; i < points; i++) expect((await openInPlayground(viewer, "small-b", "i1")).status, `open ${i + 1}`).toBe(200);
    const refused = await openInPlayground(viewer, "small-b", "i1");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await callers.db.auditEvent.count({ where: { action: "playground.opened", actorId: viewer.id } }), "the refused open wrote nothing and started nothing").toBe(points);
  });
});
