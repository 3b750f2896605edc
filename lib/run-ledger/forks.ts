// What a fork reads of its origin run tree (lib/forks builds the tape from it),
// and the fork links between runs (the run header's "Fork of …" and "Forks").
import type { Db } from "../db/prisma";
import type { ChatMessage, RunEvent, TraceSpan } from "../contract/types";

/** The events a fork's tape is built from. */
const FORK_EVENT_TYPES = ["inference_started", "inference_completed", "tool_call_started", "tool_call_completed", "approval_requested", "approval_decided"] as const;
export type ForkEvent = Extract<RunEvent, { type: (typeof FORK_EVENT_TYPES)[number] }>;

export interface ForkSource {
  /** The tree's root run: what a fork starts again. */
  /** `variantOfVersionId`: the saved version an unsaved variant (a fork with an edited prompt or model) derives from. */
  root: { id: string; agentName: string; graphName: string | null; agentVersionId: string | null; variantOfVersionId: string | null; task: string; context: string };
  runs: { id: string; parentRunId: string | null; startedAt: Date }[];
  /** Every span of the tree, per run in start order. */
  spans: { runId: string; span: TraceSpan }[];
  /** The events above, per run in sequence order. */
  events: { runId: string; event: ForkEvent }[];
  /** Assistant messages, per run in conversation order. */
  assistantMessages: { runId: string; message: Extract<ChatMessage, { role: "assistant" }> }[];
}

/** The run tree `runId` belongs to, read whole for a fork; null when the run is unknown. */
export async function readForkSource(db: Db, runId: string): Promise<ForkSource | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { rootRunId: true } });
  if (!run) return null;
  const root = await db.run.findUnique({ where: { id: run.rootRunId }, select: { id: true, agentName: true, graphName: true, agentVersionId: true, variantOfVersionId: true, task: true, context: true } });
  if (!root) return null;
  const runs = await db.run.findMany({ where: { rootRunId: root.id }, select: { id: true, parentRunId: true, startedAt: true } });
  const ids = runs.map((r) => r.id);
  const [spanRows, eventRows, messageRows] = await Promise.all([
    db.runSpan.findMany({ where: { runId: { in: ids } }, orderBy: [{ runId: "asc" }, { startedAt: "asc" }, { spanId: "asc" }] }),
    db.runEvent.findMany({ where: { runId: { in: ids }, type: { in: [...FORK_EVENT_TYPES] } }, orderBy: [{ runId: "asc" }, { seq: "asc" }], select: { runId: true, data: true } }),
    db.runMessage.findMany({ where: { runId: { in: ids }, role: "assistant" }, orderBy: [{ runId: "asc" }, { index: "asc" }], select: { runId: true, data: true } }),
  ]);
  return {
    root,
    runs,
    spans: spanRows.map((r) => {
      const data = JSON.parse(r.data) as Pick<TraceSpan, "tokens" | "attempts" | "attributes">;
      return {
        runId: r.runId,
        span: {
          id: r.spanId,
          parentId: r.parentId,
          kind: r.kind as TraceSpan["kind"],
          name: r.name,
          status: r.status as TraceSpan["status"],
          startedAt: r.startedAt.toISOString(),
          endedAt: r.endedAt ? r.endedAt.toISOString() : null,
          ...(data.tokens ? { tokens: data.tokens } : {}),
          ...(data.attributes ? { attributes: data.attributes } : {}),
        },
      };
    }),
    events: eventRows.map((r) => ({ runId: r.runId, event: JSON.parse(r.data) as ForkEvent })),
    assistantMessages: messageRows.map((r) => ({ runId: r.runId, message: JSON.parse(r.data) as Extract<ChatMessage, { role: "assistant" }> })),
  };
}

export interface ForkLink {
  runId: string;
  spanId: string | null;
  /** The sub-run holding the fork's step, when it is not the run asked about. */
  inRun?: string;
  status: string;
  startedAt: string;
  startedBy: string | null;
}

/** The runs forked from `runId` — for a root run, from any run of its tree (a step of a sub-agent's run) — newest first (at most `take`). */
export async function readForksOf(db: Db, runId: string, take = 50): Promise<ForkLink[]> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { rootRunId: true } });
  if (!run) return [];
  const origins = run.rootRunId === runId ? (await db.run.findMany({ where: { rootRunId: runId }, select: { id: true } })).map((r) => r.id) : [runId];
  const rows = await db.run.findMany({ where: { forkOfRunId: { in: origins } }, orderBy: { startedAt: "desc" }, take, select: { id: true, forkOfRunId: true, forkSpanId: true, status: true, startedAt: true, startedBy: true } });
  return rows.map((r) => ({ runId: r.id, spanId: r.forkSpanId, ...(r.forkOfRunId !== runId && r.forkOfRunId ? { inRun: r.forkOfRunId } : {}), status: r.status, startedAt: r.startedAt.toISOString(), startedBy: r.startedBy }));
}

/** Where `runId` was forked from (the run holding the fork's span, its tree's root and the span's name), or null (not a fork, or an unknown run). */
export async function readForkOrigin(db: Db, runId: string): Promise<{ runId: string; rootRunId: string | null; spanId: string | null; spanName: string | null } | null> {
  const row = await db.run.findUnique({ where: { id: runId }, select: { forkOfRunId: true, forkSpanId: true } });
  if (!row?.forkOfRunId) return null;
  const [origin, span] = await Promise.all([
    db.run.findUnique({ where: { id: row.forkOfRunId }, select: { rootRunId: true } }),
    row.forkSpanId ? db.runSpan.findUnique({ where: { runId_spanId: { runId: row.forkOfRunId, spanId: row.forkSpanId } }, select: { name: true, kind: true } }) : null,
  ]);
  return { runId: row.forkOfRunId, rootRunId: origin?.rootRunId ?? null, spanId: row.forkSpanId, spanName: span ? `${span.kind} ${span.name}` : null };
}

/** The kind and name ("tool calculator") of each fork's step, keyed `<runId>/<spanId>`, in one read; a span no longer in the ledger is left out. */
export async function readForkStepNames(db: Db, refs: readonly { runId: string; spanId: string }[]): Promise<Map<string, string>> {
  if (refs.length === 0) return new Map();
  const rows = await db.runSpan.findMany({ where: { OR: refs.map((r) => ({ runId: r.runId, spanId: r.spanId })) }, select: { runId: true, spanId: true, kind: true, name: true } });
  return new Map(rows.map((r) => [`${r.runId}/${r.spanId}`, `${r.kind} ${r.name}`]));
}
