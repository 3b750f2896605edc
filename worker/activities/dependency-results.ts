// A plan node's dependencies' results, read from the run ledger just before a
// model call (claim check). The workflow, its inputs and its history carry only
// references (ResultRef: the dependency's run); the result itself is read here,
// once per call, so a node with 200 dependencies costs its plan's history 200
// run ids instead of 200 quoted answers. The ledger keeps the message as sent
// (with its references), and the conversation view links each one to its run.
import type { ChatMessage, ResultRef } from "../../lib/contract/types";
import type { Db } from "../../lib/db/prisma";
import { readRunOutputs } from "../../lib/run-ledger/read";

/**
 * How much of one dependency's result the model reads. Generous (the result
 * is no longer copied through Temporal), but bounded so a node with many
 * verbose dependencies still fits a model's context.
 */
export const RESULT_CHARS_READ = 16_000;

/** A dependency's result as the model reads it: its typed answer as JSON, else its text. */
function resultText(row: { output: string | null; outputData: string | null } | undefined): string {
  if (!row) return "(no result recorded)";
  const text = row.outputData ?? row.output ?? "";
  return text.length > RESULT_CHARS_READ ? `${text.slice(0, RESULT_CHARS_READ)}… (the first ${RESULT_CHARS_READ} of ${text.length} characters)` : text;
}

/** The lines that stand for `refs` in the message the model reads. */
export function resultLines(refs: readonly ResultRef[], rows: ReadonlyMap<string, { output: string | null; outputData: string | null }>): string[] {
  return refs.map((ref) => `- ${ref.nodeId} (${ref.agent}): ${resultText(rows.get(ref.runId))}`);
}

/** The messages with every user message's result references replaced by the results; others are returned as they are. */
export async function withDependencyResults<M extends ChatMessage>(db: Db, messages: readonly M[]): Promise<M[]> {
  const refs = messages.flatMap((m) => (m.role === "user" ? (m.results ?? []) : []));
  if (refs.length === 0) return [...messages];
  const rows = await readRunOutputs(db, refs.map((r) => r.runId));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return messages.map((message) => {
    if (message.role !== "user" || !message.results?.length) return message;
    const { results, ...rest } = message;
    return { ...rest, content: [message.content, ...resultLines(results, byId)].join("\n") } as M;
  });
}
