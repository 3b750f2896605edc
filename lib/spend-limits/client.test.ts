// ZapClient's spend limit calls against a real HTTP server (node:http on a free
// port, no fetch mocks): the paths and bodies they send, the envelopes they
// unwrap, and a run refused by a limit read as an ApiError with its code.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, ZapClient } from "../client/zap-client";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(answer: (method: string, url: string) => { status: number; body: unknown }) {
  const seen: { method: string; url: string; body: string }[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      seen.push({ method: request.method ?? "", url: request.url ?? "", body });
      const { status, body: out } = answer(request.method ?? "", request.url ?? "");
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(out));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { seen, client: new ZapClient({ baseUrl: `http://127.0.0.1:${port}/`, apiKey: "zap_unit-test-key-0123456789" }) };
}

describe("ZapClient spend limits", () => {
  it("lists, sets and removes through /api/spend-limits", async () => {
    const limit = { id: "spl_abcdefgh12", scope: "graph", scopeId: "g", amountUsd: 5 };
    const { seen, client } = await serve((method) => (method === "GET" ? { status: 200, body: { limits: [limit] } } : method === "POST" ? { status: 200, body: { limit } } : { status: 200, body: { removed: limit.id } }));
    expect(await client.listSpendLimits()).toEqual([limit]);
    expect(await client.setSpendLimit({ scope: "graph", scopeId: "g", period: "day", amountUsd: 5 })).toEqual(limit);
    expect(await client.removeSpendLimit(limit.id)).toEqual({ removed: limit.id });
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ["GET", "/api/spend-limits"],
      ["POST", "/api/spend-limits"],
      ["DELETE", `/api/spend-limits/${limit.id}`],
    ]);
    expect(JSON.parse(seen[1]?.body ?? "{}")).toEqual({ scope: "graph", scopeId: "g", period: "day", amountUsd: 5 });
  });

  it("a run start refused by a limit is an ApiError 402 with the code and the one line (not retried)", async () => {
    const message = 'Spend limit reached: $5.00 spent of the daily spend limit of graph "g" ($5.00); new runs are refused until 2026-12-01 00:00 UTC or an admin raises the limit.';
    const { seen, client } = await serve(() => ({ status: 402, body: { error: { code: "spend_limit_reached", message } } }));
    const error = await client.startRun({ graph: "g", task: "t" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 402, code: "spend_limit_reached", message });
    expect(seen).toHaveLength(1);
  });
});
