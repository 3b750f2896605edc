// Shared arrangements of the experiment integration tests: a saved graph with
// two versions, a dataset built through the datasets domain's own change
// function, and the experiment started as the web server starts it.
import { randomUUID } from "node:crypto";
import { saveAgentVersion } from "../../lib/agents/repository";
import { applyChange, createDataset } from "../../lib/datasets/server/store";
import type { ItemDraft } from "../../lib/datasets/import-parse";
import type { DatasetTapeEntry } from "../../lib/datasets/schemas";
import { startExperiment } from "../../lib/experiments/server/start";
import type { StartExperimentInput } from "../../lib/experiments/schemas";
import { startExperimentSchema } from "../../lib/experiments/schemas";
import { eventually, type EngineHarness } from "../../scripts/test-support/engine-harness";

export interface Builder {
  id: string;
  email: string;
}

export async function builder(h: EngineHarness): Promise<Builder> {
  const user = await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" }, select: { id: true, email: true } });
  return user;
}

/** A one-agent graph; v2 drops lookup_order and calculator, so items that need the calculator live regress. */
export async function twoVersionGraph(h: EngineHarness, user: Builder): Promise<string> {
  const name = `exp-${randomUUID().slice(0, 8)}`;
  const graph = (tools: string[]) => ({ entryAgent: "main", agents: [{ name: "main", model: "demo/test", tools }], limits: { followUpWindowSeconds: 0 } });
  await saveAgentVersion(h.db, name, graph(["lookup_order", "ledger_transfer", "calculator"]), { createdById: user.id, note: "v1" });
  await saveAgentVersion(h.db, name, graph(["ledger_transfer"]), { createdById: user.id, note: "v2: no lookup_order, no calculator" });
  return name;
}

export function tapeCall(tool: string, args: Record<string, unknown>, result: string): DatasetTapeEntry {
  return { kind: "tool_call", tool, arguments: args, outcome: "ok", result };
}

export function item(task: string, options: { output?: string; tape?: DatasetTapeEntry[]; trajectory?: { tool: string; arguments: Record<string, unknown> }[]; tags?: string[] } = {}): ItemDraft {
  return {
    input: { task, context: {} },
    expected: { ...(options.output !== undefined ? { output: options.output } : {}), ...(options.trajectory ? { trajectory: options.trajectory } : {}) },
    tape: options.tape ?? [],
    tags: options.tags ?? [],
    source: {},
  };
}

/** A new dataset with these items as its version 1 (none: a dataset with no version yet). */
export async function dataset(h: EngineHarness, user: Builder, items: ItemDraft[]): Promise<string> {
  const name = `ds-${randomUUID().slice(0, 8)}`;
  if (items.length === 0) {
    await createDataset(user, { name }, h.db);
    return name;
  }
  await applyChange(user, { newDataset: { name } }, { add: items, note: "test items", action: "dataset.items_added" }, h.db);
  return name;
}

export function start(h: EngineHarness, user: Builder, input: StartExperimentInput, options: { unitsPerExecution?: number } = {}) {
  return startExperiment({ db: h.db, temporal: h.client, taskQueue: h.taskQueue, ...options }, startExperimentSchema.parse(input), user);
}

export function waitForExperiment(h: EngineHarness, experimentId: string, statuses: string[], timeoutMs = 90_000) {
  return eventually(() => h.db.experiment.findUniqueOrThrow({ where: { id: experimentId } }), (e) => statuses.includes(e.status), timeoutMs, `experiment ${experimentId} to be ${statuses.join("|")}`);
}

export async function resultRows(h: EngineHarness, experimentId: string) {
  const rows = await h.db.experimentResult.findMany({ where: { experimentId }, orderBy: { seq: "asc" } });
  return rows.map((r) => ({ ...r, scores: JSON.parse(r.scores) as { scorer: string; value: number; pass: boolean | null; detail: string }[] }));
}
