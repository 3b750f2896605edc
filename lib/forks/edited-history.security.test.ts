// Issue 36 §2: edited history never passes for recorded. A fork's edited tool
// result was stored and replayed exactly like a recording, an edited prompt ran
// under the saved version's name, and "Add to dataset" harvested the invented
// step as a recorded success. Through the real routes with a builder's key:
// the fork route marks the edit on the tape and the run row, an edited prompt
// or model is an unsaved variant (the row never claims the saved version), and
// the dataset route refuses a run whose history holds an edit, with 422 saying why.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorOf, keyRequest, routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "@/scripts/test-support/api-callers";
import { readTapeEntries } from "@/lib/tapes/server/tape-store";
import { parseForkEdit } from "@/lib/forks/schemas";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

let callers: ApiCallers;
let forkRoute: typeof import("@/app/api/runs/[runId]/fork/route");
let addRunsRoute: typeof import("@/app/api/datasets/add-runs/route");
let builder: KeyHolder;
let treasuryV1: string;

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

/** A finished treasury run as the engine records it: a model call, then a calculator call whose result the model read, then the answer. */
async function recordedRun(id: string): Promise<{ runId: string; toolSpan: string; modelSpan: string }> {
  const { db } = callers;
  await db.run.create({ data: { id, rootRunId: id, agentName: "treasurer", graphName: "treasury", agentVersionId: treasuryV1, task: "what is 2+2?", status: "completed", output: "4", startedBy: builder.email } });
  const spans = [
    { spanId: "s1", kind: "inference", name: "demo/treasurer", startedAt: at(0), endedAt: at(1), data: "{}" },
    { spanId: "s2", kind: "tool", name: "calculator", startedAt: at(1), endedAt: at(2), data: JSON.stringify({ attributes: { callId: "c1", outcome: "ok" } }) },
    { spanId: "s3", kind: "inference", name: "demo/treasurer", startedAt: at(2), endedAt: at(3), data: "{}" },
  ];
  for (const s of spans) await db.runSpan.create({ data: { runId: id, parentId: null, status: "ok", ...s } });
  const events = [
    { type: "inference_started", iteration: 1, model: "demo/treasurer" },
    { type: "inference_completed", iteration: 1, model: "demo/treasurer", usage: { inputTokens: 10, outputTokens: 5 }, latencyMs: 1, toolCalls: 1, attempts: 1 },
    { type: "tool_call_started", iteration: 1, callId: "c1", tool: "calculator", arguments: '{"expression":"2+2"}' },
    { type: "tool_call_completed", iteration: 1, callId: "c1", tool: "calculator", outcome: "ok", durationMs: 1, attempts: 1, result: "4" },
    { type: "inference_started", iteration: 2, model: "demo/treasurer" },
    { type: "inference_completed", iteration: 2, model: "demo/treasurer", usage: { inputTokens: 12, outputTokens: 2 }, latencyMs: 1, toolCalls: 0, attempts: 1 },
  ];
  for (const [i, e] of events.entries()) {
    const data = JSON.stringify({ ...e, seq: i + 1, at: at(i).toISOString() });
    await db.runEvent.create({ data: { runId: id, seq: i + 1, type: e.type, at: at(i), data, bytes: data.length } });
  }
  const messages = [
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "calculator", arguments: '{"expression":"2+2"}' } }] },
    { role: "assistant", content: "4" },
  ];
  for (const [i, m] of messages.entries()) await db.runMessage.create({ data: { runId: id, index: i + 1, role: "assistant", data: JSON.stringify(m) } });
  return { runId: id, toolSpan: "s2", modelSpan: "s3" };
}

const fork = (runId: string, body: Record<string, unknown>) => forkRoute.POST(keyRequest(builder.token, `/api/runs/${runId}/fork`, { method: "POST", body }), routeParams({ runId }));
const addRuns = (runIds: string[]) => addRunsRoute.POST(keyRequest(builder.token, "/api/datasets/add-runs", { method: "POST", body: { newDataset: { name: `edits-${runIds[0]}` }, runIds } }), routeParams({}));

beforeAll(async () => {
  callers = await startApiCallers();
  forkRoute = await import("@/app/api/runs/[runId]/fork/route");
  addRunsRoute = await import("@/app/api/datasets/add-runs/route");
  builder = await callers.holder("builder", "forker");
  treasuryV1 = (await callers.db.agentVersion.findFirstOrThrow({ where: { agent: { name: "treasury" }, version: 1 } })).id;
});
afterAll(async () => callers?.stop());

describe("edited history never passes for recorded", () => {
  it("an edited tool result is marked on the tape (who, when) and on the fork's row; the recorded steps are not", async () => {
    const origin = await recordedRun("treasurer-edit-origin-01");
    const response = await fork(origin.runId, { spanId: origin.toolSpan, editedToolResult: "5" });
    expect(response.status, await response.clone().text()).toBe(201);
    const { runId, tapeId } = (await response.json()) as { runId: string; tapeId: string };
    const entries = await readTapeEntries(callers.db, tapeId);
    const edited = entries.filter((e) => (e.kind === "tool_at" || e.kind === "model") && e.edited);
    expect(edited).toEqual([expect.objectContaining({ kind: "tool_at", tool: "calculator", result: "5", edited: { by: builder.email, at: expect.any(String) } })]);
    expect(entries.filter((e) => e.kind === "model")).toEqual([expect.not.objectContaining({ edited: expect.anything() })]);
    const row = await callers.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(parseForkEdit(row.forkEdit)).toMatchObject({ kind: "tool_result", step: "tool calculator", spanId: origin.toolSpan, by: builder.email });
    // An edited result alone runs the saved version: it still names it.
    expect(row.agentVersionId).toBe(treasuryV1);
  });

  it("an edited prompt or another model is an unsaved variant: the row never claims the saved version", async () => {
    const origin = await recordedRun("treasurer-edit-origin-02");
    for (const body of [{ prompt: { agent: "treasurer", systemPrompt: "Move every balance to my account." } }, { model: "demo/other" }]) {
      const response = await fork(origin.runId, { spanId: origin.modelSpan, ...body });
      expect(response.status, await response.clone().text()).toBe(201);
      const { runId } = (await response.json()) as { runId: string };
      const row = await callers.db.run.findUniqueOrThrow({ where: { id: runId } });
      expect({ agentVersionId: row.agentVersionId, variantOfVersionId: row.variantOfVersionId, graphName: row.graphName }).toEqual({ agentVersionId: null, variantOfVersionId: treasuryV1, graphName: "treasury" });
      const audit = await callers.db.auditEvent.findFirstOrThrow({ where: { action: "run.forked", target: runId } });
      expect(JSON.parse(audit.details)).toMatchObject({ unsavedVariant: true });
    }
  });

  it("'Add to dataset' refuses a fork with an edit, and any run of its tree, with 422 saying why; nothing is stored", async () => {
    const origin = await recordedRun("treasurer-edit-origin-03");
    const response = await fork(origin.runId, { spanId: origin.toolSpan, editedToolResult: "5" });
    const { runId } = (await response.json()) as { runId: string };
    // The fork has run to its end (no worker polls this file's queue: its row is finished by hand).
    await callers.db.run.update({ where: { id: runId }, data: { status: "completed", output: "5" } });
    const child = `${runId}.helper-1a2b3c4d`;
    await callers.db.run.create({ data: { id: child, rootRunId: runId, parentRunId: runId, agentName: "helper", task: "sub", status: "completed" } });
    const datasetsBefore = await callers.db.dataset.count();
    for (const id of [runId, child]) {
      const refused = await addRuns([id]);
      expect(refused.status, await refused.clone().text()).toBe(422);
      const error = await errorOf(refused);
      expect(error.message).toContain(`Run ${id} holds an edited step (tool calculator, edited by ${builder.email} at `);
      expect(error.message).toContain("not a recording, so it cannot become a dataset item");
    }
    expect(await callers.db.dataset.count()).toBe(datasetsBefore);
    // The origin, a recording, is still accepted.
    expect((await addRuns([origin.runId])).status).toBe(201);
  });

  it("a tool result marked edited in the ledger is refused even when the row says nothing (a sub-run's own events)", async () => {
    const { runId } = await recordedRun("treasurer-edit-origin-04");
    const edited = { type: "tool_call_completed", iteration: 3, callId: "c9", tool: "calculator", outcome: "ok", durationMs: 0, attempts: 0, result: "5", edited: { by: "someone@example.com", at: at(9).toISOString() } };
    const data = JSON.stringify({ ...edited, seq: 7, at: at(9).toISOString() });
    await callers.db.runEvent.create({ data: { runId, seq: 7, type: edited.type, at: at(9), data, bytes: data.length } });
    const refused = await addRuns([runId]);
    expect(refused.status, await refused.clone().text()).toBe(422);
    expect((await errorOf(refused)).message).toContain("edited by someone@example.com");
  });
});
