// A follow-up refused by the graph's follow-up policy (limits.followUps
// "reject") is refused the same way by both doors — the run page's server
// action and POST /api/runs/:runId/messages (what the TypeScript client calls):
// 409 conflict with the reason the page shows, nothing audited; and the same
// message is taken through either door once the run has answered.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eventually, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome } from "../../scripts/test-support/parity";
import { saveAgentVersion } from "../agents/repository";
import { scaledWait } from "../../scripts/test-support/wait-scale";

vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/engine/server/engine", async () => (await import("../../scripts/test-support/parity-doors")).engineModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);

const messagesRoute = await import("@/app/api/runs/[runId]/messages/route");
const { startRunAction } = await import("./start-run");
const { sendFollowUpAction } = await import("./send-follow-up");

let h: EngineHarness;
let agent: string;
beforeAll(async () => {
  h = await startEngineHarness();
  doors.db = h.db;
  doors.engine = h.engine;
  doors.config = h.config;
  const builder = await h.db.user.findUniqueOrThrow({ where: { email: "builder@zap.local" } });
  doors.userId = builder.id;
  agent = `reject-${randomUUID().slice(0, 8)}`;
  const graph = { entryAgent: "main", agents: [{ name: "main", model: "demo/test" }], limits: { followUpWindowSeconds: 60, followUps: "reject" as const } };
  await saveAgentVersion(h.db, agent, graph, { createdById: builder.id });
});
afterAll(async () => h?.stop());

const viaAction = async (runId: string, content: string) => actionOutcome(await sendFollowUpAction({ runId, content }));
const viaRoute = async (runId: string, content: string) => routeOutcome(await messagesRoute.POST(apiRequest("POST", `/api/runs/${runId}/messages`, { content }), params({ runId })));

describe("a follow-up to a working run of a graph that refuses them", () => {
  it("is refused with 409 and its reason by the action and the route alike, unaudited; taken by both once the run answered", async () => {
    const started = actionOutcome(await startRunAction({ graph: agent, task: "think 8000\nanswer: first" }));
    if (!started.ok) throw new Error(`expected a run: ${JSON.stringify(started)}`);
    const { runId } = started.data as { runId: string };
    await waitForStatus(h.engine, runId, ["thinking"], 45_000);

    const action = await audited(h.db, () => viaAction(runId, "answer: too soon"));
    const route = await audited(h.db, () => viaRoute(runId, "answer: too soon"));
    expectSameRefusal(route.outcome, action.outcome, "a message while the run works");
    expect(route.outcome).toMatchObject({ ok: false, status: 409, error: { code: "conflict", message: expect.stringMatching(/^The run is still working on its current turn/) } });
    expect([...action.audit, ...route.audit], "a refused message is not audited").toEqual([]);

    expect((await waitForStatus(h.engine, runId, ["completed"], 45_000)).output).toBe("first");
    const taken = await audited(h.db, () => viaRoute(runId, "think 8000\nanswer: second"));
    expect(taken.outcome).toEqual({ ok: true, data: { accepted: true } });
    expect(taken.audit.map((a) => a.action)).toEqual(["run.follow_up"]);
    // Working again: the action refuses now, as the route did.
    const refused = await viaAction(runId, "answer: third");
    expect(refused).toMatchObject({ ok: false, status: 409, error: { code: "conflict" } });
    await eventually(() => h.engine.getRun(runId), (s) => s.output === "second", 45_000, "the taken message's answer");
    expect(await viaAction(runId, "answer: third")).toEqual({ ok: true, data: { accepted: true } });
  }, scaledWait(150_000));
});
