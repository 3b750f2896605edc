// The run the OTLP export tests send (otlp-export.int.test.ts, phoenix-export.int.test.ts):
// a lead whose model calls are each retried once, a sub-agent conversation, and a
// tool call an approver decides — every kind of span the mapping has to link.
import { eventually, waitForStatus, type EngineHarness } from "./engine-harness";

/** A lead that retries its model call once, asks billing (whose calculator call waits for an approver), then answers. */
const TEAM_GRAPH = {
  entryAgent: "lead",
  agents: [
    { name: "lead", model: "demo/lead", subAgents: ["billing"] },
    { name: "billing", model: "demo/billing", description: "sums", tools: ["calculator"], approvalRules: [{ pattern: "calculator", requiredRole: "approver" as const }] },
  ],
  limits: { subAgentIdleTimeoutSeconds: 60, followUpWindowSeconds: 60 },
};
const TEAM_TASK = ['@lead: flaky 1', 'message billing: tool calculator {"expression": "6*7"}', "answer: team consulted"].join("\n");

/** Runs the team task to completion, approving billing's call as the demo approver; the root run's id. */
export async function runTeamTask(h: EngineHarness): Promise<string> {
  const { runId } = await h.engine.startRun({ graph: TEAM_GRAPH, task: TEAM_TASK });
  const approval = await eventually(
    async () => (await h.engine.listPendingApprovals()).find((a) => a.rootRunId === runId),
    (a) => a !== undefined,
    30_000,
    "billing's calculator call to wait for an approver",
  );
  const approver = await h.db.user.findUniqueOrThrow({ where: { email: "approver@zap.local" } });
  await h.engine.decideApproval(approval!.runId, { approvalId: approval!.id, approved: true, reason: "checked", decidedBy: { id: approver.id, email: approver.email, role: approver.role } });
  const done = await waitForStatus(h.engine, runId, ["completed"], 60_000);
  if (done.output !== "team consulted") throw new Error(`the team run answered ${JSON.stringify(done.output)}`);
  return runId;
}

/** The names of a span's ancestors, nearest first. */
export function ancestry(spans: readonly { spanId: string; parentSpanId: string | null; name: string }[], name: string): string[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  let current = spans.find((s) => s.name === name);
  if (!current) throw new Error(`no span "${name}" among ${spans.map((s) => s.name).join(", ")}`);
  const out: string[] = [];
  while (current?.parentSpanId) {
    current = byId.get(current.parentSpanId);
    if (current) out.push(current.name);
  }
  return out;
}
