import "server-only";
// What the fork dialog offers for one step: the saved graph's versions (the
// origin's preselected), the prompt of the agent whose step it is, and the
// step's recorded result or output to start an edit from.
import { agentGraphSchema } from "../../agents/schemas";
import { getDb } from "../../db/server/db";
import { RunNotFound } from "../../engine/errors";
import { readEventsOfTypes, readInferenceExchange, readRunRow, readSpan } from "../../run-ledger/read";
import { StepNotFound } from "../build-tape";
import type { ForkOptions } from "../schemas";

export async function forkOptions(runId: string, spanId: string): Promise<ForkOptions> {
  const db = getDb();
  const run = await readRunRow(db, runId);
  if (!run) throw new RunNotFound(runId);
  const span = await readSpan(db, runId, spanId);
  if (!span) throw new StepNotFound(spanId, runId);
  const root = run.rootRunId === run.id ? run : await readRunRow(db, run.rootRunId);
  const graphName = root?.graphName ?? null;
  const rows = graphName ? await db.agentVersion.findMany({ where: { agent: { name: graphName } }, orderBy: { version: "desc" }, take: 50, select: { id: true, version: true, note: true, graph: true, draft: true } }) : [];
  const versions = rows.map((row) => {
    const graph = agentGraphSchema.safeParse(JSON.parse(row.graph));
    const agent = graph.success ? graph.data.agents.find((a) => a.name === run.agentName) : undefined;
    return { version: row.version, note: row.note, isOrigin: row.id === (root?.agentVersionId ?? root?.variantOfVersionId), draft: row.draft, agent: agent ? { name: agent.name, model: agent.model, systemPrompt: agent.systemPrompt } : null };
  });
  let recorded: string | null = null;
  const callId = span.attributes?.callId;
  if (span.kind === "tool" && typeof callId === "string") {
    const events = await readEventsOfTypes(db, runId, ["tool_call_completed"], { take: 20, mentioning: callId });
    const done = events.find((e) => e.type === "tool_call_completed" && e.callId === callId);
    recorded = done?.type === "tool_call_completed" ? done.result : null;
  } else if (span.kind === "inference") {
    const exchange = await readInferenceExchange(db, runId, new Date(span.startedAt), 0);
    recorded = exchange?.output.role === "assistant" ? (exchange.output.content ?? "") : null;
  }
  return {
    runId,
    spanId,
    span: { kind: span.kind, name: span.name },
    graphName,
    agentName: run.agentName,
    versions,
    recorded,
  };
}
