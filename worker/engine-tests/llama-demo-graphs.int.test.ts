// Every demo graph once on a real model (issue 22 §3): llama.cpp's
// llama-server with SmolLM2-135M (../shared/STACK.md), reached through the
// OpenAI-compatible provider as the run dialog does it — the saved graph, the
// first example task, every agent on `openai-compatible/local/smol`. A model
// this small rarely does what the prompt asks; what is tested is the engine
// around it: each run ends completed or failed with a typed reason and a
// readable message, no run of its tree is left running, its ledger reads back,
// and llama-server answered every request without a server error.
//
// Collected only where a llama-server binary is found (ZAP_LLAMA_SERVER, or a
// build in .tools/llama/: `npx tsx scripts/test-support/llama-server.ts`),
// never skipped: see vitest.config.ts and docs/real-models.md.
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startEngineHarness, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { provisionLlamaServer, provisionSmolModel, startLlamaServer, type LlamaServer } from "../../scripts/test-support/llama-server";
import { DEMO_AGENT_GRAPHS } from "../../lib/agents/demo";
import { examplesFor } from "../../lib/runs/examples";
import { FAILURE_REASONS } from "../../lib/runs/schemas";
import { readRunTree } from "../../lib/run-ledger/read";
import { TERMINAL_STATUSES, type RunSummary, type TraceNode } from "../../lib/contract/types";

const MODEL = "openai-compatible/local/smol";
/** How long one demo run may take before it counts as stuck (the slowest took 40 s here, on two cores other tests were loading). */
const RUN_WAIT_MS = 240_000;

let llama: LlamaServer;
let h: EngineHarness;
let approver: { id: string; email: string; role: string };
/** One line per graph: how its run ended on the real model, printed after the file. */
const outcomes: string[] = [];
beforeAll(async () => {
  const [binary, model] = await Promise.all([provisionLlamaServer(), provisionSmolModel()]);
  llama = await startLlamaServer({ binary, model });
  // Configured as STACK.md's llama.cpp recipe: structured outputs on, a tool call written as text read as that call.
  h = await startEngineHarness({
    env: {
      OPENAI_COMPATIBLE_BASE_URL: llama.baseUrl,
      OPENAI_COMPATIBLE_NAME: "local",
      OPENAI_COMPATIBLE_STRUCTURED_OUTPUTS: "true",
      OPENAI_COMPATIBLE_TOOL_CALLS_IN_TEXT: "true",
    },
  });
  const user = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
  approver = { id: user.id, email: user.email, role: user.role };
}, 600_000);
afterAll(async () => {
  await h?.stop();
  // ZAP_LLAMA_LOG=<file> keeps llama-server's output (its timings per request, its refusals) for a look afterwards.
  if (llama && process.env.ZAP_LLAMA_LOG) writeFileSync(process.env.ZAP_LLAMA_LOG, llama.log());
  await llama?.stop();
  // What each graph did on the real model, for the test log (docs/real-models.md quotes it).
  if (outcomes.length) console.log(`demo graphs on ${MODEL}:\n${outcomes.map((o) => `  ${o}`).join("\n")}\n  llama-server: ${llama.statuses().length} responses, ${llama.abandoned()} abandoned by the client`);
});

/**
 * Waits for the run to end. A tool call the model made that needs a person
 * (a transfer) is rejected, as an approver would, so that the run goes on to its end.
 */
async function settle(runId: string): Promise<{ summary: RunSummary; rejected: string[] }> {
  const rejected: string[] = [];
  const deadline = Date.now() + RUN_WAIT_MS;
  for (;;) {
    const left = deadline - Date.now();
    const summary = await eventually(() => h.engine.getRun(runId), (s) => TERMINAL_STATUSES.includes(s.status) || s.status === "awaiting_approval", Math.max(left, 1), `run ${runId} to end`);
    if (summary.status !== "awaiting_approval") return { summary, rejected };
    for (const approval of (await h.engine.listPendingApprovals()).filter((a) => a.rootRunId === runId)) {
      await h.engine.decideApproval(approval.runId, { approvalId: approval.id, approved: false, reason: "real-model test: not approved", decidedBy: approver });
      rejected.push(`${approval.agentName}'s ${approval.toolName}`);
    }
    await eventually(() => h.engine.getRun(runId), (s) => s.status !== "awaiting_approval", 30_000, `run ${runId} to leave awaiting_approval`);
  }
}

const flatten = (nodes: TraceNode[]): TraceNode[] => nodes.flatMap((node) => [node, ...flatten(node.children)]);

/** A message a person can read: one line or a few, no stack frames, no serialised objects. */
function expectReadable(message: string | undefined, what: string): void {
  expect(message?.trim(), `${what} is empty`).toBeTruthy();
  expect(message, `${what} carries a stack trace`).not.toMatch(/\n\s+at .+[(:]\d+/);
  expect(message, `${what} is a serialised object`).not.toMatch(/\[object Object\]|^undefined$/);
}

describe(`the demo graphs on a real model (llama.cpp, ${MODEL})`, () => {
  for (const demo of DEMO_AGENT_GRAPHS) {
    it(`${demo.name} ends completed or failed with a typed reason, its whole tree ended and readable`, async () => {
      const example = examplesFor(demo.name)[0];
      expect(example, `${demo.name} has no run-dialog example: add one to lib/runs/examples.ts`).toBeDefined();
      if (!example) return;
      const started = Date.now();
      const { runId } = await h.engine.startRun({ graphName: demo.name, task: example.task, ...(example.context ? { context: example.context } : {}), modelOverride: MODEL });
      // A run that does not end in time is cancelled, so that it does not hold llama-server while the next graph runs.
      const { summary, rejected } = await settle(runId).catch(async (error: unknown) => {
        await h.engine.cancelRun(runId).catch(() => undefined);
        throw error;
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const events = await h.engine.getEvents(runId);
      const verdict = summary.error ? `${summary.error.reason} — ${summary.error.message.slice(0, 160)}` : `— ${(summary.output ?? "").replace(/\s+/g, " ").slice(0, 100)}`;
      const tools = events.filter((e) => e.type === "tool_call_completed").length;
      const route = summary.routedTo ? `; routed to ${summary.routedTo}` : "";
      outcomes.push(`${demo.name}: ${summary.status} ${verdict} (${seconds} s; ${tools} tool calls${route}${rejected.length ? `; rejected: ${rejected.join(", ")}` : ""})`);

      expect(["completed", "failed"], `${demo.name} ended ${summary.status}`).toContain(summary.status);
      if (summary.status === "completed") {
        expectReadable(summary.output ?? undefined, "the answer");
      } else {
        expect(FAILURE_REASONS, "a typed failure reason").toContain(summary.error?.reason);
        // llama-server answered (or the run would be model_error): the failure is the engine's verdict on the answer.
        expect(summary.error?.reason, summary.error?.message).not.toBe("model_error");
        expectReadable(summary.error?.message, "the failure message");
      }

      // The run tree as the ledger holds it: no child (routed agent, plan node, sub-agent) left running.
      const tree = await eventually(() => readRunTree(h.db, runId), (runs) => runs.every((r) => (TERMINAL_STATUSES as readonly string[]).includes(r.status)), 30_000, `every run of ${runId}'s tree to end`);
      expect(tree.map((r) => r.id)).toContain(runId);

      // What the run page reads: its events end with the verdict, its trace is closed, its conversation is there.
      const last = events.filter((e) => e.type === "run_completed" || e.type === "run_failed").at(-1);
      expect(last?.type, "the ledger's last verdict").toBe(summary.status === "completed" ? "run_completed" : "run_failed");
      // A completed run may still wait for a follow-up (its window keeps the run span and a timer open); nothing else is left running.
      const waiting = (span: TraceNode) => summary.status === "completed" && (span.kind === "run" || (span.kind === "timer" && span.attributes?.timer === "follow_up_window"));
      const open = flatten(await h.engine.getTrace(runId)).filter((span) => span.status === "running" && !waiting(span));
      expect(open.map((span) => `${span.kind} ${span.name}`), "spans left running").toEqual([]);
      expect((await h.engine.getHistory(runId)).some((m) => m.role === "user"), "the conversation holds the task").toBe(true);
    }, RUN_WAIT_MS + 60_000);
  }

  it("llama-server answered every request without a server error", () => {
    const statuses = llama.statuses();
    expect(statuses.length, "each demo run above asked llama-server at least once").toBeGreaterThanOrEqual(DEMO_AGENT_GRAPHS.length);
    expect(statuses.filter((s) => s >= 500), `responses with a 5xx status; llama-server's log ends:\n${llama.log().slice(-3000)}`).toEqual([]);
  });
});
