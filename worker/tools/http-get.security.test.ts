// Issue 14 §2 through the real engine: an agent's http_get cannot reach the
// server's private network just because ZAP_HTTP_ALLOWLIST names the host.
// The story: an operator lists an internal service for http_get; an agent
// (or a prompt injection steering it) fetches it. The egress guard refuses
// until the operator also lists it in ZAP_EGRESS_ALLOW_HOSTS, and the model
// hears one plain sentence, never the address or the reply.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { singleAgentGraph, startEngineHarness, waitForStatus, type EngineHarness } from "../../scripts/test-support/engine-harness";
import type { RunEvent } from "../../lib/contract/types";

let server: Server;
let host: string;
let connections = 0;
const harnesses: EngineHarness[] = [];

beforeAll(async () => {
  server = createServer((_q, r) => r.writeHead(200, { "content-type": "text/plain" }).end("internal admin console"));
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const h of harnesses) await h.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function fetchThroughAgent(env: Record<string, string>) {
  const h = await startEngineHarness({ env });
  harnesses.push(h);
  const { runId } = await h.engine.startRun({ graph: singleAgentGraph({ tools: ["http_get"] }), task: `tool http_get {"url":"http://${host}/admin"}\nanswer: done` });
  await waitForStatus(h.engine, runId, ["completed"], 60_000);
  const events = await h.engine.getEvents(runId);
  const [result] = events.filter((e): e is Extract<RunEvent, { type: "tool_call_completed" }> => e.type === "tool_call_completed");
  if (!result) throw new Error("expected the http_get call to complete");
  return result;
}

describe("http_get and the egress guard", () => {
  it("a host on ZAP_HTTP_ALLOWLIST that is loopback is refused before any connection", async () => {
    const result = await fetchThroughAgent({ ZAP_HTTP_ALLOWLIST: host });
    expect(result.outcome).toBe("error");
    expect(result.result).toBe("http_get failed: That address is not reachable from Zap Studio (private or local network).");
    expect(connections).toBe(0);
  });

  it("listed in ZAP_EGRESS_ALLOW_HOSTS as well, the operator's own service is reachable", async () => {
    const result = await fetchThroughAgent({ ZAP_HTTP_ALLOWLIST: host, ZAP_EGRESS_ALLOW_HOSTS: host });
    expect(result.outcome).toBe("ok");
    expect(result.result).toContain("internal admin console");
    expect(connections).toBe(1);
  });
});
