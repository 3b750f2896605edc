// The playground through both doors on a real worker (issue 27 §1): a demo
// run's model call is loaded as the model saw it, edited, and run alone — the
// demo model proposes a transfer, and nothing moves: no ledger entry, no
// balance change, no new run. Opening is audited (it describes the tools in a
// workflow); the call is audited with its model and tokens,
// never its messages; limits, roles and "save as draft" (a draft version through
// the designer's append: not the default until promoted, refused when nothing of
// the agent changed) refuse and succeed the same way by action and route.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Client } from "@temporalio/client";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import { doors } from "../../scripts/test-support/parity-doors";
import { actionOutcome, apiRequest, audited, expectSameRefusal, params, routeOutcome, type Outcome } from "../../scripts/test-support/parity";
import { readSpans } from "../run-ledger/read";
import { editMessage, lastUserIndex } from "./messages";
import type { PlaygroundCall, PlaygroundResult } from "./schemas";
import { executePlayground } from "./server/temporal";
import type { PlaygroundCallRequest } from "./contract";

const temporal = vi.hoisted(() => ({ client: null as unknown }));
vi.mock("@/lib/auth/server/auth", async () => (await import("../../scripts/test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("../../scripts/test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("../../scripts/test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("../../scripts/test-support/parity-doors")).cacheModule);
vi.mock("@/lib/temporal/server/client", () => ({ getTemporalClient: () => temporal.client as Client }));

const loadRoute = await import("@/app/api/runs/[runId]/spans/[spanId]/playground/route");
const callRoute = await import("@/app/api/playground/call/route");
const draftRoute = await import("@/app/api/playground/draft/route");
const { loadPlaygroundCallAction } = await import("../actions/load-playground-call");
const { playgroundCallAction } = await import("../actions/playground-call");
const { savePlaygroundDraftAction } = await import("../actions/save-playground-draft");

let h: EngineHarness;
const ids: Record<string, string> = {};
const as = (role: string) => {
  doors.userId = ids[role] ?? null;
};
const dataOf = <T,>(outcome: Outcome): T => {
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  return (outcome as { data: T }).data;
};
const TRANSFER = 'tool ledger_transfer {"from_account":"refunds","to_account":"operating","amount":349.99}';

let runId: string;
let spanId: string;

beforeAll(async () => {
  h = await startEngineHarness();
  temporal.client = h.client;
  doors.db = h.db;
  doors.config = h.config;
  for (const role of ["admin", "builder", "viewer"]) ids[role] = (await h.db.user.findUniqueOrThrow({ where: { email: `${role}@zap.local` } })).id;
  ({ runId } = await h.engine.startRun({ graphName: "treasury", task: "tool ledger_balance {\"account\":\"refunds\"}\nanswer: Nothing to move today.", startedBy: { id: ids.builder!, email: "builder@zap.local" } }));
  await waitForStatus(h.engine, runId, ["completed"]);
  const inference = (await readSpans(h.db, runId)).filter((s) => s.kind === "inference");
  expect(inference.length, "the demo run made model calls").toBeGreaterThanOrEqual(2);
  spanId = inference[inference.length - 1]!.id;
});
afterAll(async () => h?.stop());

const ledgerState = async () => ({
  entries: await h.db.ledgerEntry.count(),
  balances: await h.db.ledgerAccount.findMany({ orderBy: { id: "asc" }, select: { id: true, balanceCents: true } }),
  runs: await h.db.run.count(),
});

describe("playground", () => {
  let loaded: PlaygroundCall;

  it("loads a model call as the model saw it, through either door, for any role", async () => {
    as("viewer");
    const route = await audited(h.db, async () => routeOutcome(await loadRoute.POST(apiRequest("POST", `/api/runs/${runId}/spans/${spanId}/playground`), params({ runId, spanId }))));
    const action = await audited(h.db, async () => actionOutcome(await loadPlaygroundCallAction({ runId, spanId })));
    const byRoute = dataOf<PlaygroundCall>(route.outcome);
    const byAction = dataOf<PlaygroundCall>(action.outcome);
    expect(byAction).toEqual(byRoute);
    for (const { audit } of [route, action]) expect(audit, "opening describes the tools in a workflow: audited").toEqual([{ action: "playground.opened", actorId: ids.viewer, target: `${runId}/${spanId}` }]);
    loaded = byRoute;
    expect(loaded).toMatchObject({ runId, spanId, agentName: "treasurer", graphName: "treasury", model: "demo/treasurer", messagesOmitted: 0 });
    expect(loaded.messages.map((m) => m.role), "system prompt, task, the balance call and its result").toEqual(["system", "user", "assistant", "tool"]);
    expect(loaded.messages[0]?.content).toContain("You manage the demo ledger");
    expect(loaded.tools.map((t) => t.name).sort(), "the agent's tools, described as for a run").toEqual(["calculator", "ledger_balance", "ledger_transfer"]);
    expect(loaded.tools.find((t) => t.name === "ledger_transfer")?.parameters).toMatchObject({ type: "object" });
    expect(loaded.original.content).toBe("Nothing to move today.");
    expect(loaded.original.usage.outputTokens).toBeGreaterThan(0);
    expect(loaded.promptTemplate).toContain("You manage the demo ledger");
  });

  it("refuses a span that is not a model call, and an unknown span, the same way by either door", async () => {
    as("viewer");
    const other = (await readSpans(h.db, runId)).find((s) => s.kind === "tool")!;
    for (const [what, id, status] of [["a tool span", other.id, 422], ["an unknown span", "s9999", 404]] as const) {
      const route = await routeOutcome(await loadRoute.POST(apiRequest("POST", `/api/runs/${runId}/spans/${id}/playground`), params({ runId, spanId: id })));
      expectSameRefusal(route, actionOutcome(await loadPlaygroundCallAction({ runId, spanId: id })), what);
      expect(route.ok === false && route.status, what).toBe(status);
    }
  });

  it("runs the edited call alone: the transfer is proposed, not executed, and the audit row has no messages", async () => {
    as("builder");
    const before = await ledgerState();
    const messages = editMessage(loaded.messages.slice(0, 2), lastUserIndex(loaded.messages.slice(0, 2)), TRANSFER);
    const input = { runId, spanId, agentName: loaded.agentName, model: loaded.model, temperature: loaded.temperature, maxOutputTokens: loaded.maxOutputTokens, messages, tools: loaded.tools };
    const byAction = await audited(h.db, async () => actionOutcome(await playgroundCallAction(input)));
    const byRoute = await audited(h.db, async () => routeOutcome(await callRoute.POST(apiRequest("POST", "/api/playground/call", input), params({}))));
    for (const { outcome } of [byAction, byRoute]) {
      const result = dataOf<PlaygroundResult>(outcome);
      expect(result.toolCalls.map((c) => c.name)).toEqual(["ledger_transfer"]);
      expect(JSON.parse(result.toolCalls[0]!.arguments)).toEqual({ from_account: "refunds", to_account: "operating", amount: 349.99 });
      expect(result.usage.inputTokens).toBeGreaterThan(0);
      expect(result.model).toBe("demo/treasurer");
    }
    expect(await ledgerState(), "no entry, no balance change, no run: the call was only proposed").toEqual(before);
    for (const { audit } of [byAction, byRoute]) expect(audit).toEqual([{ action: "playground.called", actorId: ids.builder, target: `${runId}/${spanId}` }]);
    const row = await h.db.auditEvent.findFirstOrThrow({ where: { action: "playground.called" }, orderBy: { seq: "desc" } });
    expect(JSON.parse(row.details)).toMatchObject({ model: "demo/treasurer", ok: true, proposedToolCalls: 1 });
    expect(row.details, "the row never holds the conversation").not.toContain("ledger_transfer");
  });

  it("the demo script answers in the playground: an edited answer line is answered", async () => {
    as("builder");
    const result = dataOf<PlaygroundResult>(
      actionOutcome(await playgroundCallAction({ model: "demo/assistant", temperature: 0, maxOutputTokens: 200, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "answer: Edited in the playground." }] })),
    );
    expect(result).toMatchObject({ content: "Edited in the playground.", toolCalls: [] });
  });

  it("refuses a viewer (runs:launch), 201 messages (422) and over 1 MB (413) the same way by either door", async () => {
    const base = { model: "demo/assistant", temperature: 0, maxOutputTokens: 100 };
    const cases = [
      ["a viewer", "viewer", { ...base, messages: [{ role: "user", content: "answer: hi" }] }, 403],
      ["201 messages", "builder", { ...base, messages: Array.from({ length: 201 }, () => ({ role: "user", content: "x" })) }, 422],
      ["over 1 MB", "builder", { ...base, messages: [{ role: "user", content: "x".repeat(1_000_100) }] }, 413],
      ["an unknown key", "builder", { ...base, messages: [{ role: "user", content: "x" }], stream: true }, 422],
    ] as const;
    for (const [what, role, body, status] of cases) {
      as(role);
      const route = await routeOutcome(await callRoute.POST(apiRequest("POST", "/api/playground/call", body), params({})));
      expectSameRefusal(route, actionOutcome(await playgroundCallAction(body)), what);
      expect(route.ok === false && route.status, what).toBe(status);
      if (status === 413) expect(route.ok === false && route.error.message, what).toContain("1,000,000");
      if (what === "201 messages") expect(route.ok === false && JSON.stringify(route.error), what).toContain("at most 200 messages");
    }
  });

  it("saves the edited prompt as a draft (builders), noted with the run: not the default until promoted; nothing changed → 422", async () => {
    const current = async () => (await h.db.agentVersion.findFirstOrThrow({ where: { agent: { name: "treasury" }, draft: false }, orderBy: { version: "desc" } })).version;
    const newest = async () => (await h.db.agentVersion.findFirstOrThrow({ where: { agent: { name: "treasury" } }, orderBy: { version: "desc" } })).version;
    const base = await current();
    const baseAgent = (JSON.parse((await h.db.agentVersion.findFirstOrThrow({ where: { agent: { name: "treasury" }, version: base } })).graph) as { agents: { name: string; systemPrompt: string; temperature: number }[] }).agents.find((a) => a.name === "treasurer")!;
    const draft = { runId, spanId, graphName: "treasury", agentName: "treasurer", baseVersion: base, systemPrompt: "You manage the demo ledger. Be terse.", model: "demo/treasurer", temperature: 0.7 };
    as("viewer");
    const refused = await routeOutcome(await draftRoute.POST(apiRequest("POST", "/api/playground/draft", draft), params({})));
    expectSameRefusal(refused, actionOutcome(await savePlaygroundDraftAction(draft)), "a viewer");
    expect(refused.ok === false && refused.status).toBe(403);

    as("builder");
    // Only the conversation was edited: the agent's settings are its base's, and a version identical to it is refused.
    const same = { ...draft, systemPrompt: baseAgent.systemPrompt, temperature: baseAgent.temperature, model: undefined };
    const nothing = await routeOutcome(await draftRoute.POST(apiRequest("POST", "/api/playground/draft", same), params({})));
    expectSameRefusal(nothing, actionOutcome(await savePlaygroundDraftAction(same)), "nothing of the agent changed");
    expect(nothing.ok === false && nothing.status).toBe(422);
    expect(nothing.ok === false && nothing.error.message).toMatch(/^Nothing to save: treasurer's system prompt, model, temperature and output cap are those of v\d+/);
    expect(await newest(), "nothing was saved").toBe(base);

    const saved = await audited(h.db, async () => actionOutcome(await savePlaygroundDraftAction(draft)));
    const answer = dataOf<{ version: number; draft: boolean; changes: { field: string }[] }>(saved.outcome);
    expect(answer).toMatchObject({ version: base + 1, draft: true });
    expect(answer.changes.map((c) => c.field), "what the draft holds, said back").toEqual(["systemPrompt", "temperature"]);
    expect(saved.audit).toEqual([{ action: "agent.version_saved", actorId: ids.builder, target: "treasury" }]);
    const row = await h.db.agentVersion.findFirstOrThrow({ where: { agent: { name: "treasury" }, version: base + 1 } });
    expect(row.note).toContain(`From playground, run ${runId}`);
    expect(row.draft).toBe(true);
    const agent = (JSON.parse(row.graph) as { agents: { name: string; systemPrompt: string; temperature: number }[] }).agents.find((a) => a.name === "treasurer");
    expect(agent).toMatchObject({ systemPrompt: "You manage the demo ledger. Be terse.", temperature: 0.7 });

    // A draft is no default: a run without a version still takes the base, and another draft on the same base is no conflict.
    expect(await current(), "the default did not move").toBe(base);
    const { runId: plain } = await h.engine.startRun({ graphName: "treasury", task: "answer: ok", startedBy: { id: ids.builder!, email: "builder@zap.local" } });
    const plainRow = await h.db.run.findUniqueOrThrow({ where: { id: plain }, select: { agentVersionId: true } });
    const ran = await h.db.agentVersion.findUniqueOrThrow({ where: { id: plainRow.agentVersionId ?? "" }, select: { version: true } });
    expect(ran.version, "a run without a version number runs the default, not the draft").toBe(base);
    expect(dataOf<{ version: number }>(actionOutcome(await savePlaygroundDraftAction({ ...draft, temperature: 0.9 }))).version).toBe(base + 2);

    // Someone publishes on top of the base: a draft on the old base is now stale.
    const published = await h.db.agentVersion.create({ data: { agentId: row.agentId, version: base + 3, graph: row.graph, note: "published" } });
    const stale = await routeOutcome(await draftRoute.POST(apiRequest("POST", "/api/playground/draft", draft), params({})));
    expectSameRefusal(stale, actionOutcome(await savePlaygroundDraftAction(draft)), "a stale base version");
    expect(stale.ok === false && stale.status).toBe(409);
    await h.db.agentVersion.delete({ where: { id: published.id } });
  });

  it("no worker within the bounded wait is a 504 naming the wait, not a hang", async () => {
    const started = Date.now();
    const call: PlaygroundCallRequest = { kind: "call", label: "t", agentName: "a", model: "demo/assistant", temperature: 0, maxOutputTokens: 10, messages: [{ role: "user", content: "answer: x" }], tools: [], timeoutMs: 2000 };
    const error = await executePlayground({ temporal: h.client, taskQueue: "nobody-polls-this-queue" }, call, 2000, "The model call on demo/assistant").catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 504, code: "timeout" });
    expect((error as Error).message).toContain("did not finish within 2 s");
    expect(Date.now() - started, "the wait is bounded").toBeLessThan(15_000);
  });

  it("a conversation over 200 messages loads its system prompt and the newest messages, and says how many were left out", async () => {
    const graph = singleAgentGraph({ name: "main", model: "demo/test", systemPrompt: "Count carefully.", tools: ["calculator"], maxIterations: 200 });
    const { runId: long } = await h.engine.startRun({ graph, task: 'repeat 120 tool calculator {"expression":"1+1"}\nanswer: counted' });
    await waitForStatus(h.engine, long, ["completed"], 60_000);
    const last = (await readSpans(h.db, long)).filter((s) => s.kind === "inference").at(-1)!;
    as("viewer");
    const call = dataOf<PlaygroundCall>(actionOutcome(await loadPlaygroundCallAction({ runId: long, spanId: last.id })));
    // 200 at most; 199 when the 200th newest is a tool result whose call was cut off.
    expect(call.messages.length).toBeGreaterThanOrEqual(199);
    expect(call.messages.length).toBeLessThanOrEqual(200);
    expect(call.messages[0]).toEqual({ role: "system", content: "Count carefully." });
    expect(call.messages[1]?.role, "never an orphaned tool result after the system prompt").not.toBe("tool");
    // system + task + 120 × (call, result) were seen by the last call.
    expect(call.messagesOmitted).toBe(2 + 240 - call.messages.length);
    expect(call.messages.at(-1), "the newest message is kept").toMatchObject({ role: "tool", name: "calculator" });
    expect(call.toolNotes[0], "an inline graph's tools cannot be described").toContain("inline graph");
  });
});
