import "server-only";
// Starting a run with a tape (a fork, an experiment's run): the tape is stored,
// then the run starts through the engine client's start path like any other
// run (gate, signature, ledger row), so taped runs are ordinary runs in lists,
// traces and costs. The caller's operation writes the audit row.
import type { AgentGraph } from "../../agents/schemas";
import type { ImageInput } from "../../attachments/schemas";
import type { SessionUser } from "../../auth/server/session";
import type { Db } from "../../db/prisma";
import { getDb } from "../../db/server/db";
import type { Engine } from "../../engine/client";
import { getEngine } from "../../engine/server/engine";
import { runExists } from "../../run-ledger/read";
import type { TapeEntry, TapeSettings } from "../schemas";
import { createTape, type TapePurpose } from "./tape-store";

export interface StartTapedRunInput {
  graphName: string;
  version: number;
  task: string;
  context: Record<string, unknown>;
  images?: readonly ImageInput[];
  tape: { entries: TapeEntry[]; settings: TapeSettings; purpose: TapePurpose };
  startedBy: SessionUser;
  /** `forkEdit`: a fork's edit as lib/forks writes it (JSON text) for the run row. */
  origin?: { forkOf?: { runId: string; spanId: string }; forkEdit?: string; experimentId?: string };
  /** Runs this graph (validated) under the saved graph's name (a fork's edited prompt). */
  graphOverride?: AgentGraph;
  /** An edited prompt or model: the run's row names the saved version it derives from, never claims it. */
  unsavedVariant?: boolean;
  modelOverride?: string;
  /** The run id: the same id again returns the run started under it (an experiment's idempotent start). */
  workflowId?: string;
}

export interface TapedRunDeps {
  db: Db;
  engine: Pick<Engine, "startRun">;
}

/** The tape of an idempotent start is stored under an id of its own, derived from the run's. */
const tapeIdFor = (workflowId: string) => `tape-${workflowId}`;

export async function startTapedRunWith({ db, engine }: TapedRunDeps, input: StartTapedRunInput): Promise<{ runId: string; tapeId: string }> {
  if (input.workflowId && (await runExists(db, input.workflowId))) return { runId: input.workflowId, tapeId: tapeIdFor(input.workflowId) };
  const { tapeId } = await createTape(db, { ...input.tape, ...(input.workflowId ? { tapeId: tapeIdFor(input.workflowId) } : {}) });
  const origin = {
    ...(input.origin?.forkOf ? { forkOfRunId: input.origin.forkOf.runId, forkSpanId: input.origin.forkOf.spanId } : {}),
    ...(input.origin?.forkEdit ? { forkEdit: input.origin.forkEdit } : {}),
    ...(input.origin?.experimentId ? { experimentId: input.origin.experimentId } : {}),
  };
  try {
    const { runId } = await engine.startRun({
      graphName: input.graphName,
      version: input.version,
      task: input.task,
      context: input.context,
      ...(input.images?.length ? { images: input.images } : {}),
      ...(input.modelOverride ? { modelOverride: input.modelOverride } : {}),
      ...(input.graphOverride ? { graphOverride: input.graphOverride } : {}),
      ...(input.unsavedVariant ? { unsavedVariant: true } : {}),
      startedBy: { id: input.startedBy.id, email: input.startedBy.email },
      tape: { tapeId },
      origin,
      ...(input.workflowId ? { runId: input.workflowId } : {}),
    });
    return { runId, tapeId };
  } catch (error) {
    // Two starts with one id at once: the one that lost finds the other's run.
    if (input.workflowId && (await runExists(db, input.workflowId))) return { runId: input.workflowId, tapeId };
    throw error;
  }
}

/** Starts a run with a tape (tape-contract.md): `{ runId, tapeId }`. */
export function startTapedRun(input: StartTapedRunInput): Promise<{ runId: string; tapeId: string }> {
  return startTapedRunWith({ db: getDb(), engine: getEngine() }, input);
}
