// ZapClient's version label calls against a real HTTP server (node:http on a free
// port, no fetch mocks): the paths, methods and bodies they send and the
// envelopes they unwrap; a run started by label sends the label.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ZapClient } from "../client/zap-client";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(answer: (method: string, url: string) => unknown) {
  const seen: { method: string; url: string; body: string }[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      seen.push({ method: request.method ?? "", url: request.url ?? "", body });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(answer(request.method ?? "", request.url ?? "")));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { seen, client: new ZapClient({ baseUrl: `http://127.0.0.1:${port}/`, apiKey: "zap_unit-test-key-0123456789" }) };
}

describe("ZapClient version labels", () => {
  it("reads, sets, removes and protects labels under /api/agents/:name/labels", async () => {
    const { seen, client } = await serve((method, url) => (url.endsWith("/protection") ? { graph: "*", label: "staging", protected: true } : method === "GET" ? { graph: "g", labels: [], protectedNames: ["production"] } : { status: "applied", label: null }));
    expect(await client.listLabels("g")).toEqual({ graph: "g", labels: [], protectedNames: ["production"] });
    expect(await client.setLabel("g", "canary", { version: 2, split: { version: 3, percent: 20, sticky: "context", contextKey: "customerId" } })).toEqual({ status: "applied", label: null });
    await client.removeLabel("g", "canary");
    await client.protectLabel("*", "staging", true);
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ["GET", "/api/agents/g/labels"],
      ["POST", "/api/agents/g/labels/canary"],
      ["DELETE", "/api/agents/g/labels/canary"],
      ["POST", "/api/agents/*/labels/staging/protection"],
    ]);
    expect(JSON.parse(seen[1]?.body ?? "{}")).toEqual({ version: 2, split: { version: 3, percent: 20, sticky: "context", contextKey: "customerId" } });
    expect(JSON.parse(seen[3]?.body ?? "{}")).toEqual({ protected: true });
  });

  it("lists and decides requests, compares splits, and starts a run by label", async () => {
    const { seen, client } = await serve((method, url) => (url.startsWith("/api/label-requests?") ? { requests: [{ id: "lmr_abcdefgh12" }] } : url.startsWith("/api/label-splits") ? { comparisons: [{ label: "canary" }] } : url === "/api/runs" ? { runId: "main-1" } : { id: "lmr_abcdefgh12", status: "approved" }));
    expect(await client.listLabelRequests({ graph: "g" })).toEqual([{ id: "lmr_abcdefgh12" }]);
    expect(await client.decideLabelRequest("lmr_abcdefgh12", "approve", "ship it")).toEqual({ id: "lmr_abcdefgh12", status: "approved" });
    await client.cancelLabelRequest("lmr_abcdefgh12");
    expect(await client.compareLabelSplits({ graph: "g", from: "2026-11-30T00:00:00.000Z" })).toEqual([{ label: "canary" }]);
    expect(await client.startRun({ graph: "g", task: "t", label: "production" })).toEqual({ runId: "main-1" });
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ["GET", "/api/label-requests?graph=g"],
      ["POST", "/api/label-requests/lmr_abcdefgh12/decision"],
      ["POST", "/api/label-requests/lmr_abcdefgh12/cancel"],
      ["GET", "/api/label-splits?graph=g&from=2026-11-30T00%3A00%3A00.000Z"],
      ["POST", "/api/runs"],
    ]);
    expect(JSON.parse(seen[1]?.body ?? "{}")).toEqual({ decision: "approve", note: "ship it" });
    expect(JSON.parse(seen[4]?.body ?? "{}")).toMatchObject({ graph: "g", label: "production" });
  });
});
