import "server-only";
// The inbox's read side: pending approvals from the engine (visibility finds the
// waiting runs, each run's query says what is pending), enriched from the run
// ledger with the parent chain, the message that made the call, tokens and cost.
import type { Db } from "../../db/prisma";
import { dedupePending, type Engine } from "../../engine/client";
import { RunNotFound } from "../../engine/errors";
import type { ApprovalRequest, ChatMessage } from "../../contract/types";
import { loadPriceBook } from "../../pricing/server/price-book";
import { ZERO_USAGE, ownUsage, rollUp } from "../../runs/server/usage";
import { builtinToolParameters } from "../../tools/arguments";
import type { InboxItem, InboxSnapshot, RunLink } from "../schemas";
import { readLatestAssistantMessages, readRunTreesOf } from "../../run-ledger/read";
import { isBudgetApproval, TOKEN_GRANT_SCHEMA } from "../../contract/budget-approval";
import { isSpendLimitApproval } from "../../contract/spend-limit-approval";
import { isPlanApproval, planApprovalSchema, planLimitsOf } from "../../contract/plan-approval";
import { readIdentities } from "./identity";

interface RunRow {
  id: string;
  rootRunId: string;
  parentRunId: string | null;
  agentName: string;
}

/** The assistant message of a call never changes once written: remember it per approval. */
const precedingCache = new Map<string, string | null>();
const PRECEDING_CACHE_LIMIT = 5_000;

/** Built-in tool schemas, computed once per tool. */
const schemaCache = new Map<string, Record<string, unknown> | null>();

function toolSchema(toolName: string): Record<string, unknown> | null {
  if (!schemaCache.has(toolName)) {
    schemaCache.set(toolName, builtinToolParameters(toolName));
  }
  return schemaCache.get(toolName) ?? null;
}

/** Root first, the run itself last; stops at a missing ancestor rather than guessing. */
export function chainOf(runId: string, runs: Map<string, Pick<RunRow, "id" | "parentRunId" | "agentName">>, fallbackAgent: string): RunLink[] {
  const chain: RunLink[] = [];
  const seen = new Set<string>();
  let current: string | null = runId;
  while (current && !seen.has(current)) {
    seen.add(current);
    const row = runs.get(current);
    chain.unshift({ runId: current, agentName: row?.agentName ?? (current === runId ? fallbackAgent : "?") });
    current = row?.parentRunId ?? null;
  }
  return chain;
}

/** Text of the assistant message holding this tool call, searching from the newest message back. */
export function precedingText(messages: { data: string }[], toolCallId: string): { found: boolean; text: string | null } {
  for (const row of messages) {
    const message = JSON.parse(row.data) as ChatMessage;
    if (message.role !== "assistant" || !message.tool_calls?.some((c) => c.id === toolCallId)) continue;
    return { found: true, text: message.content?.trim() ? message.content : null };
  }
  return { found: false, text: null };
}

async function precedingMessage(db: Db, approval: ApprovalRequest): Promise<string | null> {
  // A request for tokens or for a plan's approval follows no assistant message of its own.
  if (isBudgetApproval(approval) || isPlanApproval(approval) || isSpendLimitApproval(approval)) return null;
  const cached = precedingCache.get(approval.id);
  if (cached !== undefined) return cached;
  const messages = await readLatestAssistantMessages(db, approval.runId, 10);
  const { found, text } = precedingText(messages, approval.toolCallId);
  // Not found yet means the ledger has not caught up: ask again next refresh.
  if (found) {
    if (precedingCache.size >= PRECEDING_CACHE_LIMIT) precedingCache.clear();
    precedingCache.set(approval.id, text);
  }
  return text;
}

/**
 * Adds chain, identity (graph, task, starter), preceding message, usage and
 * tool schema to pending approvals.
 * Usage comes from the runs' model-call spans, as on the runs pages: a run
 * row's token counters include its sub-agents' replies, so summing rows over a
 * tree would count sub-runs twice.
 */
export async function enrich(db: Db, approvals: ApprovalRequest[]): Promise<InboxItem[]> {
  if (approvals.length === 0) return [];
  const rootIds = [...new Set(approvals.map((a) => a.rootRunId))];
  const [rows, messages, identities] = await Promise.all([
    readRunTreesOf(db, rootIds),
    Promise.all(approvals.map((a) => precedingMessage(db, a))),
    readIdentities(db, approvals),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const own = await ownUsage(
    db,
    rows.map((r) => r.id),
    await loadPriceBook(db),
  );
  const totals = rollUp(rows, own);
  return approvals.map((approval, i) => ({
    ...approval,
    chain: chainOf(approval.runId, byId, approval.agentName),
    ...(identities.identity.has(approval.runId) ? { identity: identities.identity.get(approval.runId) } : {}),
    decidedBefore: identities.decidedBefore.get(approval.rootRunId) ?? [],
    precedingMessage: messages[i] ?? null,
    runUsage: own.get(approval.runId) ?? ZERO_USAGE,
    treeUsage: totals.get(approval.rootRunId) ?? ZERO_USAGE,
    ...editableSchema(approval),
  }));
}

/** What the approver may edit, as a JSON schema: tokens, a plan within its graph's cards and size, a tool's arguments, or nothing (a spend limit). */
function editableSchema(approval: ApprovalRequest): Pick<InboxItem, "toolSchema" | "planLimits"> {
  if (isBudgetApproval(approval)) return { toolSchema: TOKEN_GRANT_SCHEMA };
  // Nothing to edit: the limit is raised on its own page, then the request approved.
  if (isSpendLimitApproval(approval)) return { toolSchema: { type: "object", properties: {}, additionalProperties: false } };
  const planLimits = isPlanApproval(approval) ? planLimitsOf(approval) : null;
  if (planLimits) return { toolSchema: planApprovalSchema(planLimits), planLimits };
  return { toolSchema: toolSchema(approval.toolName) };
}

let running: Promise<InboxSnapshot> | null = null;
let queued: Promise<InboxSnapshot> | null = null;

/**
 * The inbox as of now. Every open tab polls about once a second, so concurrent
 * requests share loads instead of each querying every run; but a request never
 * shares a load that began before it arrived: the inbox read right after a
 * decision must not be one taken before it (the decided card would stay, and a
 * live inbox polls no more). At most one load runs and one waits; every caller
 * that arrives while one runs shares the one that waits.
 */
export function loadInbox(engine: Engine, db: Db): Promise<InboxSnapshot> {
  const load = async (): Promise<InboxSnapshot> => {
    const approvals = await engine.listPendingApprovals();
    return { items: await enrich(db, approvals), serverTime: new Date().toISOString() };
  };
  const start = (): Promise<InboxSnapshot> => {
    const current: Promise<InboxSnapshot> = load().finally(() => {
      if (running === current) running = null;
    });
    running = current;
    return current;
  };
  if (!running) return start();
  queued ??= running
    .catch(() => undefined)
    .then(() => {
      queued = null;
      return start();
    });
  return queued;
}

/** How many approvals wait, from the run ledger's counts (no query to any run): the navigation badge. */
export async function pendingCount(engine: Engine): Promise<number> {
  const runs = await engine.listRuns({ pendingApprovalsOnly: true, limit: 500 });
  const seen = new Map<string, number>();
  for (const run of runs) seen.set(run.runId, run.pendingApprovals);
  let total = 0;
  for (const n of seen.values()) total += n;
  return total;
}

/** One run's pending approvals, enriched; an ended run has none (not an error). */
export async function loadRunApprovals(engine: Engine, db: Db, runId: string): Promise<InboxItem[]> {
  const pending = await engine.getPendingApprovals(runId).catch((error: unknown) => {
    if (error instanceof RunNotFound) return [];
    throw error;
  });
  return enrich(db, dedupePending(pending));
}
