// The experiment CLI end to end: its client calls the real route handlers (an
// API key checked as the server checks it), the real engine runs the
// experiment, and the exit code says whether the thresholds were met — 1
// naming the version that missed, 0 when all met, 2 when the server refuses
// the input. Only the network is the test's: fetch answers with the handlers.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { startEngineHarness, type EngineHarness } from "./test-support/engine-harness";
import { doors } from "./test-support/parity-doors";
import { createApiKey } from "../lib/api-keys/server/api-keys";
import { builder, dataset, item, twoVersionGraph, type Builder } from "../worker/engine-tests/experiment-fixtures";
import { scaledWait } from "./test-support/wait-scale";

vi.mock("@/lib/auth/server/auth", async () => (await import("./test-support/parity-doors")).authModule);
vi.mock("@/lib/db/server/db", async () => (await import("./test-support/parity-doors")).dbModule);
vi.mock("@/lib/config/server/config", async () => (await import("./test-support/parity-doors")).configModule);
vi.mock("next/cache", async () => (await import("./test-support/parity-doors")).cacheModule);
const temporal = vi.hoisted(() => ({ client: null as unknown }));
vi.mock("@/lib/temporal/server/client", () => ({ getTemporalClient: () => temporal.client }));

const experimentsRoute = await import("@/app/api/experiments/route");
const experimentRoute = await import("@/app/api/experiments/[experimentId]/route");
const { main } = await import("./experiment");

const SERVER = "http://zap.test";

/** The routes the CLI calls, in process. */
const routesFetch: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
  const request = new NextRequest(url, { ...(init as ConstructorParameters<typeof NextRequest>[1]), headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), host: url.host } });
  if (url.pathname === "/api/experiments") return init?.method === "POST" ? experimentsRoute.POST(request, { params: Promise.resolve({}) }) : experimentsRoute.GET(request, { params: Promise.resolve({}) });
  const detail = /^\/api\/experiments\/([^/]+)$/.exec(url.pathname);
  if (detail?.[1]) return experimentRoute.GET(request, { params: Promise.resolve({ experimentId: detail[1] }) });
  return new Response("not found", { status: 404 });
};

let h: EngineHarness;
let user: Builder;
let graph: string;
let name: string;
let token: string;

beforeAll(async () => {
  h = await startEngineHarness();
  doors.db = h.db;
  doors.config = h.config;
  temporal.client = h.client;
  user = await builder(h);
  graph = await twoVersionGraph(h, user);
  // Greetings both versions answer; sums only v1 can (v2 has no calculator).
  name = await dataset(h, user, [item("answer: hello", { output: "hello" }), item('tool calculator {"expression":"6*7"}', { output: "42" })]);
  token = (await createApiKey({ id: user.id, role: "builder" } as Parameters<typeof createApiKey>[0], { name: "ci", role: "builder" }, h.db)).token;
});
afterAll(async () => h?.stop());

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, "--server", SERVER, "--live-tool", "calculator"], { env: { ZAP_API_KEY: token }, out: (l) => out.push(l), err: (l) => err.push(l), fetch: routesFetch });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("npm run experiment", () => {
  it("exits 1 naming the version that misses a threshold, after printing a table per target", async () => {
    const run = await cli(["--dataset", name, "--graph", graph, "--versions", "1,2", "--scorer", "contains", "--threshold", "contains=0.9"]);
    expect(run.err).toContain(`${graph} v2: contains mean 0.50 < 0.90`);
    expect(run.err).not.toContain(`${graph} v1:`);
    expect(run.out).toMatch(new RegExp(`${graph} v1\\s+\\(2 of 2 scored\\)[\\s\\S]*contains\\s+1\\.00\\s+2/2\\s+≥ 0\\.90 ok`));
    expect(run.code).toBe(1);
  }, scaledWait(120_000));

  it("exits 0 when every threshold is met", async () => {
    const run = await cli(["--dataset", name, "--graph", graph, "--versions", "1", "--scorer", "contains", "--threshold", "contains=0.9"]);
    expect(run.out).toContain("✓ every threshold met");
    expect(run.code).toBe(0);
  }, scaledWait(120_000));

  it("exits 2 when the server refuses the input, with its reason", async () => {
    const run = await cli(["--dataset", name, "--graph", graph, "--versions", "7"]);
    expect(run.err).toContain(`The saved agent "${graph}" has no version 7`);
    expect(run.code).toBe(2);
  });
});
