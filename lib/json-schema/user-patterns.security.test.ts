// Issue 36 §3: no builder input stalls a worker. Regular expressions in
// schemas come from builders (an agent's answer schema, an experiment's
// json_schema scorer); they used to run on V8's backtracking engine, where
// `^(a+)+$` over a recorded answer of 38 a's and a "!" pinned a worker at 100 %
// CPU for hours. Now they run on RE2 (linear in the input), and a pattern RE2
// cannot run (backreference, lookaround) is refused at save or start with a 422
// naming the field, through the real routes with a builder's key.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorOf, keyRequest, routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "@/scripts/test-support/api-callers";
import type { ObservedRun } from "@/lib/experiments/scoring/types";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

let callers: ApiCallers;
let builder: KeyHolder;
let agentsRoute: typeof import("@/app/api/agents/route");
let versionsRoute: typeof import("@/app/api/agents/[name]/versions/route");
let experimentsRoute: typeof import("@/app/api/experiments/route");
let importRoute: typeof import("@/app/api/datasets/import/route");

const noParams = routeParams({});
/**
 * The attack's answer, shortened from the issue's 38 a's so that the old engine's failure is seen in
 * seconds instead of hours (each a doubles V8's backtracking); RE2 answers either in microseconds.
 */
const EVIL_ANSWER = `${"a".repeat(30)}!`;
const EVIL_PATTERN = "^(a+)+$";
/** Far above RE2's milliseconds on a loaded machine, far below the old engine's tens of seconds. */
const BOUND_MS = 2_000;

beforeAll(async () => {
  callers = await startApiCallers();
  builder = await callers.holder("builder");
  agentsRoute = await import("@/app/api/agents/route");
  versionsRoute = await import("@/app/api/agents/[name]/versions/route");
  experimentsRoute = await import("@/app/api/experiments/route");
  importRoute = await import("@/app/api/datasets/import/route");
});
afterAll(async () => callers?.stop());

/** A graph of the builder's own (version 1, blank), through POST /api/agents. */
async function ownGraph(name: string): Promise<void> {
  const response = await agentsRoute.POST(keyRequest(builder.token, "/api/agents", { method: "POST", body: { name, template: "blank" } }), noParams);
  expect(response.status, await response.clone().text()).toBe(201);
}

function graphWithAnswerSchema(schema: Record<string, unknown>) {
  return { entryAgent: "main", agents: [{ name: "main", model: "demo/test", outputSchema: { schema } }] };
}

async function saveVersion(name: string, graph: unknown): Promise<Response> {
  return versionsRoute.POST(keyRequest(builder.token, `/api/agents/${name}/versions`, { method: "POST", body: { baseVersion: 1, message: "answer schema", graph } }), routeParams({ name }));
}

describe("patterns in an agent's answer schema", () => {
  it("a backreference or a lookbehind in an answer schema is refused at save with 422 naming the schema (the old engine accepted both)", async () => {
    await ownGraph("pattern-refused");
    for (const pattern of ["^(a)\\1$", "(?<=x)y", "(?=a)a"]) {
      const response = await saveVersion("pattern-refused", graphWithAnswerSchema({ type: "object", properties: { code: { type: "string", pattern } } }));
      expect(response.status, `${pattern}: ${await response.clone().text()}`).toBe(422);
      const error = await errorOf(response);
      expect(error.issues?.[0]).toMatchObject({ path: "agents[0].outputSchema.schema" });
      expect(error.issues?.[0]?.message).toMatch(/\/properties\/code\/pattern: pattern .* cannot be matched in linear time/);
    }
    expect(await callers.db.agentVersion.count({ where: { agent: { name: "pattern-refused" } } }), "nothing saved past the blank version").toBe(1);
  });

  it("a catastrophic pattern that RE2 can run is saved, and the worker's answer check over the attack answer returns at once", async () => {
    await ownGraph("pattern-linear");
    const schema = { type: "object", properties: { code: { type: "string", pattern: EVIL_PATTERN } }, required: ["code"] };
    const saved = await saveVersion("pattern-linear", graphWithAnswerSchema(schema));
    expect(saved.status, await saved.clone().text()).toBe(201);
    const { checkAnswer } = await import("@/worker/activities/answer-check");
    const started = performance.now();
    const checked = checkAnswer({ schema, strict: false }, { content: JSON.stringify({ code: EVIL_ANSWER }), toolCalls: [] });
    const elapsed = performance.now() - started;
    expect(checked).toMatchObject({ ok: false, errors: [`/code must match pattern "${EVIL_PATTERN}"`] });
    expect(elapsed, `the answer check took ${elapsed.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
  });
});

describe("patterns in an experiment's json_schema scorer", () => {
  it("an experiment whose scorer holds a backreference is refused at start with 422 naming scorers[0].schema; nothing is stored", async () => {
    await ownGraph("scored-graph");
    const imported = await importRoute.POST(
      keyRequest(builder.token, "/api/datasets/import", { method: "POST", body: { newDataset: { name: "attack-items" }, format: "jsonl", content: `${JSON.stringify({ task: "answer the code" })}\n` } }),
      noParams,
    );
    expect(imported.status, await imported.clone().text()).toBe(201);
    const response = await experimentsRoute.POST(
      keyRequest(builder.token, "/api/experiments", {
        method: "POST",
        body: { dataset: "attack-items", targets: [{ graph: "scored-graph", version: 1 }], scorers: [{ kind: "json_schema", schema: { type: "string", pattern: "^(a+)\\1$" } }] },
      }),
      noParams,
    );
    expect(response.status, await response.clone().text()).toBe(422);
    const error = await errorOf(response);
    expect(error.issues?.[0]?.path).toBe("scorers[0].schema");
    expect(error.message).toMatch(/scorers\[0\]\.schema: .*cannot be matched in linear time/);
    expect(await callers.db.experiment.count(), "no experiment was stored or started").toBe(0);
  });

  it(`the worker's scorer over the recorded answer "a…a!" with ${EVIL_PATTERN} answers in milliseconds (the old engine: 2^n steps)`, async () => {
    const { scoreRun } = await import("@/lib/experiments/scoring/score-run");
    const observed: ObservedRun = {
      runId: "run_attack",
      status: "completed",
      output: JSON.stringify(EVIL_ANSWER),
      outputData: null,
      errorReason: null,
      toolCalls: [],
      editedSteps: [],
      routing: [],
      plan: null,
      latencyMs: 10,
      inputTokens: 1,
      outputTokens: 1,
      costUsd: 0,
    };
    const started = performance.now();
    const [score] = await scoreRun(observed, { input: { task: "answer the code" }, expected: {} }, [{ kind: "json_schema", schema: { type: "string", pattern: EVIL_PATTERN } }], {
      judge: () => Promise.reject(new Error("no judge in this experiment")),
    });
    const elapsed = performance.now() - started;
    expect(score).toMatchObject({ scorer: "json_schema", pass: false });
    expect(elapsed, `the scorer took ${elapsed.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
  });

  it("patternProperties keys run on RE2 too: a strict schema whose key and property name are both the attack's compiles at once", async () => {
    const { checkJsonSchema } = await import("@/lib/json-schema/validator");
    const started = performance.now();
    // Ajv's strict mode used to test each patternProperties key against the schema's own property names with V8's RegExp.
    const problems = checkJsonSchema({ type: "object", patternProperties: { [EVIL_PATTERN]: { type: "string" } }, properties: { [EVIL_ANSWER]: { type: "string" } } });
    const elapsed = performance.now() - started;
    expect(problems).toEqual([]);
    expect(elapsed, `the schema check took ${elapsed.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
    expect(checkJsonSchema({ type: "object", patternProperties: { "(?=x)": {} } })[0]).toMatch(/^\/patternProperties: pattern "\(\?=x\)" cannot be matched in linear time/);
  });
});
