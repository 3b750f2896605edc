import "server-only";
// A run's decided calls with what each did after the decision: the approval
// card, the inbox's "decided here" list and the conversation show the tool's
// result as what was done — apart from what the model said before it asked.
import type { Db } from "../../db/prisma";
import type { ChatMessage } from "../../contract/types";
import { operation } from "../../http/server/operation";
import { getDb } from "../../db/server/db";
import { runDecisionsInputSchema, type DecidedCall } from "../schemas";
import { readMessages } from "../../run-ledger/read";
import { BUDGET_APPROVAL_TOOL } from "../../contract/budget-approval";
import { PLAN_APPROVAL_TOOL } from "../../contract/plan-approval";

const DECIDED = ["approved", "rejected", "expired"] as const;
type DecidedStatus = (typeof DECIDED)[number];
const isDecided = (status: string): status is DecidedStatus => (DECIDED as readonly string[]).includes(status);

function jsonObject(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The tool result of each call id, from the run's messages. */
export function toolResults(messages: readonly ChatMessage[]): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of messages) if (message.role === "tool") results.set(message.tool_call_id, message.content);
  return results;
}

/** Decided tool calls of one run, oldest first, each with the tool's result once it has answered. */
export async function readRunDecisions(db: Db, runId: string): Promise<DecidedCall[]> {
  // Tool calls only: a grant of tokens or a plan's approval has no tool result of its own.
  const records = await db.approvalRecord.findMany({
    where: { runId, status: { in: [...DECIDED] }, toolName: { notIn: [BUDGET_APPROVAL_TOOL, PLAN_APPROVAL_TOOL] } },
    orderBy: { requestedAt: "asc" },
    take: 200,
  });
  if (!records.length) return [];
  const results = toolResults(await readMessages(db, runId));
  return records.flatMap((r): DecidedCall[] =>
    isDecided(r.status)
      ? [
          {
            approvalId: r.id,
            runId: r.runId,
            toolCallId: r.toolCallId,
            toolName: r.toolName,
            status: r.status,
            decidedBy: r.decidedByEmail,
            decidedAt: r.decidedAt?.toISOString() ?? null,
            editedArguments: jsonObject(r.editedArguments),
            result: results.get(r.toolCallId) ?? null,
          },
        ]
      : [],
  );
}

/** A run's decided calls and their results: read by anyone who may read runs. */
export const runDecisionsOperation = operation({
  name: "run-decisions",
  permission: "read",
  input: runDecisionsInputSchema,
  run: ({ input }) => readRunDecisions(getDb(), input.runId),
});
