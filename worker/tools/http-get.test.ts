// http_get's own limits: no redirect is followed (its target could be off the
// allow-list), and a huge reply is cut rather than buffered whole.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch } from "../../lib/net/egress";
import { findBuiltin } from "./builtins";
import { ToolUserError, type ToolContext } from "./types";

let server: Server;
let host: string;
beforeAll(async () => {
  server = createServer((q, r) => {
    if (q.url === "/moved") r.writeHead(302, { location: "http://elsewhere.example/" }).end();
    else r.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(500_000));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function context(): ToolContext {
  return {
    db: {} as ToolContext["db"],
    runId: "r",
    rootRunId: "r",
    agentName: "a",
    iteration: 1,
    callId: "c",
    idempotencyKey: "r:1:c",
    runContext: {},
    signal: new AbortController().signal,
    heartbeat: () => undefined,
    httpAllowlist: [host],
    egressFetch: createGuardedFetch({ allowHosts: [host] }),
  };
}

describe("http_get", () => {
  const tool = findBuiltin("http_get");
  it("reports a redirect instead of following it", async () => {
    const error = await tool?.execute({ url: `http://${host}/moved` }, context()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolUserError);
    expect((error as Error).message).toMatch(/redirect \(HTTP 302\)/);
  });

  it("returns the start of a large reply, marked truncated", async () => {
    const result = (await tool?.execute({ url: `http://${host}/big` }, context())) as { body: string; truncated: boolean };
    expect(result.body).toHaveLength(20_000);
    expect(result.truncated).toBe(true);
  });
});
