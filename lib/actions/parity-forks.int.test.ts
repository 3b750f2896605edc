// Route/action parity for forking a run (issue 27, H1): POST /api/runs/:runId/fork
// and forkRunAction with the same input give a fork and the same run.forked row;
// bad input (unknown keys, a model id that is not one, an edit on the wrong kind
// of step, an unknown step) and a viewer are refused the same way by both doors,
// with nothing started or audited.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import { saveAgentVersion } from "../agents/repository";
import { readSpans } from "../run-ledger/read";
import { scaledWait } from "../../scripts/test-support/wait-scale";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const forkRoute = await import("@/app/api/runs/[runId]/fork/route");
const { forkRunAction } = await import("./fork-run");

let h: EngineHarness;
const ids: Record<string, string> = {};
let origin: string;
let toolSpan: string;
let modelSpan: string;

beforeAll(async () => {
  h = await startEngineHarness({ policy: { exemptTools: ["calculator", "kb__search_kb"] } });
  doors.db = h.db;
  doors.engine = h.engine;
  doors.config = h.config;
  for (const role of ["builder", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  const graph = `parity-fork-${randomUUID().slice(0, 8)}`;
  await saveAgentVersion(h.db, graph, { entryAgent: "main", agents: [{ name: "main", model: "demo/test", tools: ["calculator"] }], limits: { followUpWindowSeconds: 0 } }, { createdById: ids.builder ?? null });
  ({ runId: origin } = await h.engine.startRun({ graphName: graph, task: 'tool calculator {"expression":"6*7"}\nanswer: 42', startedBy: { id: ids.builder ?? "", email: "builder@zap.local" } }));
  await waitForStatus(h.engine, origin, ["completed"], 60_000);
  const spans = await readSpans(h.db, origin);
  toolSpan = spans.find((s) => s.kind === "tool")?.id ?? "";
  modelSpan = spans.find((s) => s.kind === "inference")?.id ?? "";
}, scaledWait(180_000));
afterAll(async () => h?.stop());

const as = (role: string) => {
  doors.userId = ids[role] ?? null;
};
const viaAction = async (input: Record<string, unknown>) => actionOutcome(await forkRunAction({ runId: origin, ...input }));
const viaRoute = async (input: Record<string, unknown>) => routeOutcome(await forkRoute.POST(apiRequest("POST", `/api/runs/${origin}/fork`, input), params({ runId: origin })));
const forkOf = (outcome: Outcome): string => {
  if (!outcome.ok) throw new Error(`expected a fork: ${JSON.stringify(outcome)}`);
  return (outcome.data as { runId: string }).runId;
};

describe("fork a run", () => {
  it("the same input gives a fork through either door, and the same run.forked row", async () => {
    as("builder");
    const input = { spanId: toolSpan, editedToolResult: "43" };
    const action = await audited(h.db, () => viaAction(input));
    const route = await audited(h.db, () => viaRoute(input));
    const forks = [forkOf(action.outcome), forkOf(route.outcome)];
    expect(action.audit).toEqual([{ action: "run.forked", actorId: ids.builder, target: forks[0] }]);
    expect(route.audit).toEqual([{ action: "run.forked", actorId: ids.builder, target: forks[1] }]);
    for (const fork of forks) {
      await waitForStatus(h.engine, fork, ["completed"], 60_000);
      const events = await h.engine.getEvents(fork);
      // An edited result is marked as edited, never as replayed (issue 36 §2).
      expect(events.find((e) => e.type === "tool_call_completed")).toMatchObject({ result: "43", edited: { by: expect.any(String), at: expect.any(String) } });
      expect(await h.db.run.findUniqueOrThrow({ where: { id: fork } })).toMatchObject({ forkOfRunId: origin, forkSpanId: toolSpan });
    }
  });

  it("refuses the same way, and neither door starts or audits anything", async () => {
    as("builder");
    const cases: [string, Record<string, unknown>, number][] = [
      ["an unknown key", { spanId: toolSpan, priority: "high" }, 422],
      ["a model id that is not one", { spanId: toolSpan, model: "gpt-4" }, 422],
      ["an edited result on a model step", { spanId: modelSpan, editedToolResult: "x" }, 422],
      ["an edited output on a tool step", { spanId: toolSpan, editedModelOutput: "x" }, 422],
      ["an unknown step", { spanId: "s999" }, 404],
      ["a version that does not exist", { spanId: toolSpan, version: 7 }, 422],
    ];
    for (const [what, input, status] of cases) {
      const before = await h.db.run.count();
      const action = await audited(h.db, () => viaAction(input));
      const route = await audited(h.db, () => viaRoute(input));
      expectSameRefusal(route.outcome, action.outcome, what);
      expect(route.outcome.ok ? 0 : route.outcome.status, what).toBe(status);
      expect([...action.audit, ...route.audit], `${what}: nothing audited`).toEqual([]);
      expect(await h.db.run.count(), `${what}: no run started`).toBe(before);
    }
    const unknown = await viaRoute({ spanId: "s999" });
    expect(unknown.ok ? null : unknown.error.message).toBe(`There is no step s999 in run ${origin}`);
    as("viewer");
    const viewer = await viaRoute({ spanId: toolSpan });
    expectSameRefusal(viewer, await viaAction({ spanId: toolSpan }), "a viewer");
    expect(viewer.ok ? 0 : viewer.status).toBe(403);
  });
});
