// A run whose tool results are large (60 iterations × ~100 KB) completes on a
// dev server with Temporal Cloud's payload limits, and its events, trace and
// conversation read back completely from the run ledger, page by page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import type { RunEvent, TraceNode } from "../../lib/contract/types";
import { updateRegisteredMcpServer } from "../../scripts/test-support/mcp";
import { scaledWait } from "../../scripts/test-support/wait-scale";

let h: EngineHarness;
beforeAll(async () => {
  // echo_context is an MCP tool, gated by default: this test is about payload sizes, not approvals.
  h = await startEngineHarness({ policy: { exemptTools: ["kb__echo_context"] } });
  // The seeded demo server, allowed to echo the run's context back (each result carries the blob).
  await updateRegisteredMcpServer(h, "kb", { allowTools: [], receivesRunContext: true });
});
afterAll(async () => h?.stop());

const ITERATIONS = 60;
const RESULT_BYTES = 100_000;
const PAGE_BYTES = 1_000_000;

const stdioServer = { name: "kb" };

function flatten(nodes: TraceNode[]): TraceNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

describe("large payloads", () => {
  it(`completes ${ITERATIONS} iterations of ${RESULT_BYTES / 1000} KB tool results and reads back every event`, async () => {
    // echo_context returns the run context it was sent, so each result carries the blob.
    const { runId } = await h.engine.startRun({
      graph: singleAgentGraph({ mcpServers: [stdioServer], maxIterations: 100 }, { tokenBudget: 100_000_000, continueAsNewAfterEvents: 200 }),
      task: `repeat ${ITERATIONS} tool kb__echo_context {}\nanswer: survived`,
      context: { blob: "x".repeat(RESULT_BYTES) },
    });
    const summary = await waitForStatus(h.engine, runId, ["completed"], 300_000);
    expect(summary.output).toBe("survived");
    expect(summary.iteration).toBe(ITERATIONS + 1);

    // Page by bytes: every page stays near the limit, and together they are the whole run.
    const events: RunEvent[] = [];
    let since = 0;
    let pages = 0;
    for (;;) {
      const page = await h.engine.getEventPage(runId, since, { maxBytes: PAGE_BYTES });
      pages++;
      events.push(...page.events);
      if (page.events.length > 1) expect(JSON.stringify(page.events).length).toBeLessThanOrEqual(PAGE_BYTES + page.events.length * 2);
      since = page.nextSince;
      if (!page.hasMore) break;
    }
    expect(pages, "a run this size needs several pages").toBeGreaterThan(3);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.at(-1)?.seq).toBe(summary.lastEventSeq);
    const results = events.filter((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
    expect(results).toHaveLength(ITERATIONS);
    for (const r of results) {
      expect(r.outcome).toBe("ok");
      expect(r.result.length).toBeGreaterThan(RESULT_BYTES);
    }

    const tools = flatten(await h.engine.getTrace(runId)).filter((s) => s.kind === "tool");
    expect(tools).toHaveLength(ITERATIONS);
    expect(tools.every((s) => s.status === "ok")).toBe(true);
    const history = await h.engine.getHistory(runId);
    expect(history.filter((m) => m.role === "tool")).toHaveLength(ITERATIONS);

    // Whatever went over the threshold travelled by reference.
    expect(await h.db.payloadBlob.count()).toBeGreaterThan(0);
    const largest = await h.db.payloadBlob.findFirst({ orderBy: { size: "desc" } });
    expect(largest?.size).toBeGreaterThan(h.config.temporal.payloadOffloadBytes);
  }, scaledWait(360_000));
});
