// What the ledger's writer indexes from one batch: which texts, from where,
// under which span, and which facets of the run tree.
import { describe, expect, it } from "vitest";
import type { RunEvent, TraceSpan } from "../../contract/types";
import { documentsOf, INDEXED_TEXT_MAX_CHARS } from "./index-writer";

const AT = "2026-01-01T00:00:00.000Z";
const span = (id: string, kind: TraceSpan["kind"], attributes?: TraceSpan["attributes"]): TraceSpan => ({ id, parentId: null, kind, name: kind, startedAt: AT, endedAt: AT, status: "ok", attributes });

describe("documentsOf", () => {
  const events: RunEvent[] = [
    { seq: 1, at: AT, type: "run_started", agentName: "a", task: "Where is order 4417?", depth: 0 },
    { seq: 2, at: AT, type: "inference_started", iteration: 1, model: "openai/gpt-4o" },
    { seq: 3, at: AT, type: "tool_call_started", iteration: 1, callId: "c1", tool: "lookup_order", arguments: '{"id":"4417"}' },
    { seq: 4, at: AT, type: "tool_call_completed", iteration: 1, callId: "c1", tool: "lookup_order", outcome: "error", durationMs: 3, attempts: 3, result: "upstream timeout" },
    { seq: 5, at: AT, type: "error", kind: "tool", message: "upstream timeout", callId: "c1" },
    { seq: 6, at: AT, type: "user_message", content: "  " },
    { seq: 7, at: AT, type: "run_failed", reason: "tool_error", message: "gave up" },
  ];
  const { documents, facets } = documentsOf({
    run: { runId: "child", rootRunId: "root" },
    events,
    messages: [
      { index: 0, message: { role: "system", content: "secret prompt" } },
      { index: 1, message: { role: "user", content: "Where is order 4417?" } },
      { index: 2, message: { role: "assistant", content: "x".repeat(5_000) } },
      { index: 3, message: { role: "tool", tool_call_id: "c1", name: "lookup_order", content: "upstream timeout" } },
    ],
    spans: [span("s1", "run"), span("s2", "inference"), span("s3", "tool", { callId: "c1" })],
  });

  it("indexes the task, tool arguments with the tool's name, results, errors and the model's words, each under its span", () => {
    expect(documents.map((d) => [d.source, d.seq, d.spanId, d.text.slice(0, 30)])).toEqual([
      ["task", 1, "s1", "Where is order 4417?"],
      ["tool_arguments", 3, "s3", 'lookup_order {"id":"4417"}'],
      ["tool_result", 4, "s3", "upstream timeout"],
      ["error", 5, "s3", "upstream timeout"],
      ["error", 7, "s1", "tool_error gave up"],
      ["answer", 2, "s2", "x".repeat(30)],
    ]);
    expect(documents.every((d) => d.runId === "child" && d.rootRunId === "root")).toBe(true);
  });

  it("leaves out system prompts, user and tool messages (indexed from their events) and blank texts; cuts long texts", () => {
    expect(documents.some((d) => d.text.includes("secret prompt"))).toBe(false);
    expect(documents.filter((d) => d.text === "Where is order 4417?")).toHaveLength(1);
    expect(documents.find((d) => d.source === "answer")?.text).toHaveLength(INDEXED_TEXT_MAX_CHARS);
  });

  it("keys a follow-up (by event seq) and an answer (by message index) apart when the numbers meet", () => {
    // A run's second turn: its follow-up is event 6 and its answer message 6 (search_documents is unique on run, source, seq).
    const turn = documentsOf({
      run: { runId: "r", rootRunId: "r" },
      events: [{ seq: 6, at: AT, type: "user_message", content: "second question" }],
      messages: [{ index: 6, message: { role: "assistant", content: "second answer" } }],
      spans: [],
    });
    const keys = turn.documents.map((d) => `${d.source}:${d.seq}`);
    expect(keys).toEqual(["message:6", "answer:6"]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("records the tree's tools, models and retried tools", () => {
    expect(facets.map((f) => [f.rootRunId, f.kind, f.value])).toEqual([
      ["root", "model", "openai/gpt-4o"],
      ["root", "tool", "lookup_order"],
      ["root", "retried", "lookup_order"],
    ]);
  });
});
