import "server-only";
// Loads a recorded model call for the playground: the conversation as the
// model saw it (the ledger's messages before the message the call produced,
// from the current agent's start after a handoff), the tools the engine offers
// that agent (described by a worker, as for a run, plus the engine's own), the
// model and parameters the call had, and what it answered. Describing the
// tools starts a workflow that may connect to the agent's MCP servers, so
// opening a call is a POST (never a page's GET), audited as playground.opened
// before the workflow starts, and rate-limited (operations.ts).
import type { Db } from "../../db/prisma";
import { appendAudit } from "../../audit/write";
import type { SessionUser } from "../../auth/server/session";
import { AppError } from "../../errors";
import { RunNotFound } from "../../engine/errors";
import type { AgentConfig, AgentGraph } from "../../agents/schemas";
import { readStoredGraph } from "../../agents/server/store";
import { NOT_DRAFT } from "../../agents/repository";
import { systemToolsFor } from "../../contract/system-tools";
import type { ChatMessage, RunEvent } from "../../contract/types";
import { readEventsOfTypes, readInferenceExchange, readMessagesFrom, readRunRow, readSpan } from "../../run-ledger/read";
import { costAt, type PriceBook } from "../../runs/pricing";
import type { PlaygroundDescribeOutput } from "../contract";
import { fitToLimit } from "../messages";
import { PLAYGROUND_MAX_MESSAGES, type PlaygroundCall, type PlaygroundTool } from "../schemas";
import type { DraftSettings } from "../draft";
import { executePlayground, type PlaygroundDeps } from "./temporal";

/** How long loading waits for a worker to describe the tools. */
const DESCRIBE_TIMEOUT_MS = 20_000;
/** The ledger's newest messages read for one call: the playground's limit (the system prompt is read apart). */
const READ_CAP = PLAYGROUND_MAX_MESSAGES;
const DEFAULTS = { temperature: 0.2, maxOutputTokens: 1024, runTimeoutSeconds: 3600 };

export type LoadDeps = PlaygroundDeps & { db: Db; prices: PriceBook };

interface RunGraph {
  graph: AgentGraph;
  version: number;
  graphName: string;
  /** The graph's default version now (a draft saves on top of it) and its graph. */
  current: { version: number; graph: AgentGraph };
}

/** The run's graph and version, or null for an inline graph (the workflow input holds it, not the database). */
async function graphOf(db: Db, agentVersionId: string | null): Promise<RunGraph | null> {
  if (!agentVersionId) return null;
  const row = await db.agentVersion.findUnique({ where: { id: agentVersionId }, include: { agent: true } });
  if (!row) return null;
  const graph = readStoredGraph(row.graph, `${row.agent.name} v${row.version}`);
  const latest = await db.agentVersion.findFirst({ where: { agentId: row.agentId, ...NOT_DRAFT }, orderBy: { version: "desc" }, select: { version: true, graph: true } });
  const current = latest && latest.version !== row.version ? { version: latest.version, graph: readStoredGraph(latest.graph, `${row.agent.name} v${latest.version}`) } : { version: row.version, graph };
  return { graph, version: row.version, graphName: row.agent.name, current };
}

/** The settings "Save as draft" compares an edit with: the agent's in the graph's default version. */
function baseSettings(stored: RunGraph | null, agentName: string): DraftSettings | null {
  const agent = stored?.current.graph.agents.find((a) => a.name === agentName);
  return agent ? { systemPrompt: agent.systemPrompt, model: agent.model, temperature: agent.temperature, maxOutputTokens: agent.maxOutputTokens } : null;
}

/** After a handoff the receiving agent's conversation starts at the handoff's message: which agent made the call, and from where it read. */
function speakerAt(handoffs: RunEvent[], runAgent: string, inputLength: number): { agentName: string; start: number } {
  let found = { agentName: runAgent, start: 0 };
  for (const event of handoffs) if (event.type === "handoff" && event.messageIndex <= inputLength && event.messageIndex >= found.start) found = { agentName: event.to, start: event.messageIndex };
  return found;
}

/** The tools the engine offers `agent` (tool-calls.ts prepare): described by a worker, then the engine's own. */
async function toolsOf(deps: PlaygroundDeps, agent: AgentConfig, graph: AgentGraph): Promise<{ tools: PlaygroundTool[]; notes: string[] }> {
  const subAgents = agent.kind === "router" ? [] : agent.subAgents.map((name) => ({ name, description: graph.agents.find((a) => a.name === name)?.description ?? "" }));
  const described = await executePlayground<PlaygroundDescribeOutput>(deps, { kind: "describe", agent, subAgents }, DESCRIBE_TIMEOUT_MS, "Describing the agent's tools");
  return { tools: [...described.tools, ...systemToolsFor(agent, graph)], notes: described.errors };
}

/** The recorded call `spanId` of `runId`, ready for the playground; audited as playground.opened once it is known to be one. */
export async function loadPlaygroundCall(deps: LoadDeps, user: Pick<SessionUser, "id">, runId: string, spanId: string): Promise<PlaygroundCall> {
  const { db } = deps;
  const run = await readRunRow(db, runId);
  if (!run) throw new RunNotFound(runId);
  const span = await readSpan(db, runId, spanId);
  if (!span) throw new AppError("not_found", 404, `There is no span "${spanId}" in run "${runId}"`);
  if (span.kind !== "inference") throw new AppError("validation_failed", 422, `Span "${spanId}" is a ${span.kind.replace("_", " ")} span, not a model call: open a model call in the playground`);
  if (span.status !== "ok") throw new AppError("validation_failed", 422, `The model call "${spanId}" did not complete (${span.status}): only a completed call has a recorded conversation to replay`);
  const exchange = await readInferenceExchange(db, runId, new Date(span.startedAt), READ_CAP);
  if (!exchange) throw new AppError("conflict", 409, `The conversation of model call "${spanId}" is not in the ledger yet; try again in a moment`);

  const handoffs = await readEventsOfTypes(db, runId, ["handoff"], { take: 50 });
  const speaker = speakerAt(handoffs, run.agentName, exchange.input.length + exchange.inputOmitted);
  let seen: ChatMessage[] = exchange.input.slice(Math.max(0, speaker.start - exchange.inputOmitted));
  // A conversation longer than the read: its system prompt (the agent's first message) is read on its own.
  if (speaker.start < exchange.inputOmitted) seen = [...(await readMessagesFrom(db, runId, speaker.start, 1)).map((m) => m.message), ...seen];
  const { messages } = fitToLimit(seen);
  // Of every message the agent saw at this call, those not shown.
  const omitted = exchange.input.length + exchange.inputOmitted - speaker.start - messages.length;

  const stored = await graphOf(db, run.agentVersionId);
  const agent = stored?.graph.agents.find((a) => a.name === speaker.agentName) ?? null;
  await appendAudit(db, { actorId: user.id, action: "playground.opened", target: `${runId}/${spanId}`, details: { agentName: speaker.agentName, describesTools: Boolean(stored && agent) } });
  const described = stored && agent ? await toolsOf(deps, agent, stored.graph) : { tools: [], notes: ["This run's graph was not saved (an inline graph): the call's tools cannot be described, so none are offered."] };
  const toolCalls = exchange.output.role === "assistant" ? (exchange.output.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) : [];
  const usage = span.tokens ?? { inputTokens: 0, outputTokens: 0 };
  return {
    runId,
    spanId,
    agentName: speaker.agentName,
    graphName: stored?.graphName ?? null,
    version: stored?.version ?? null,
    latestVersion: stored?.current.version ?? null,
    base: baseSettings(stored, speaker.agentName),
    // The span is named after the model the call used (a run started on another model records that one).
    model: span.name,
    temperature: agent?.temperature ?? DEFAULTS.temperature,
    maxOutputTokens: agent?.maxOutputTokens ?? DEFAULTS.maxOutputTokens,
    messages,
    messagesOmitted: omitted,
    tools: described.tools,
    toolNotes: described.notes,
    promptTemplate: agent?.systemPrompt ?? null,
    timeoutSeconds: stored?.graph.limits.runTimeoutSeconds ?? DEFAULTS.runTimeoutSeconds,
    original: {
      model: span.name,
      content: exchange.output.content,
      toolCalls,
      usage,
      costUsd: costAt(deps.prices, span.name, usage, new Date(span.startedAt)),
      latencyMs: span.endedAt ? new Date(span.endedAt).getTime() - new Date(span.startedAt).getTime() : null,
    },
  };
}
