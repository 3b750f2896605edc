// The client against a real HTTP server (node:http on a free port), no fetch
// mocks: what it sends (Bearer, no cookie), how it reads the error envelope and
// pages that are not the app's, 429s, and how streamRun follows and ends a run.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, RateLimitedApiError, StreamAccessEnded, ZapClient } from "./zap-client";
import type { RunEvent } from "../contract/types";

const KEY = "zap_unit-test-key-0123456789";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Handler = (request: Seen, response: http.ServerResponse) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server answering with `handler`, the requests it saw, and a client pointed at it. */
async function serve(handler: Handler, options: { maxRetryAfterSeconds?: number } = {}) {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const entry = { method: request.method ?? "", url: request.url ?? "", headers: request.headers, body };
      seen.push(entry);
      handler(entry, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { seen, client: new ZapClient({ baseUrl: `http://127.0.0.1:${port}/`, apiKey: KEY, ...options }) };
}

function json(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const summary = (status: string, lastEventSeq: number) => ({ run: { runId: "r1", status, lastEventSeq } });

function event(seq: number, type: "iteration_started" | "run_completed"): RunEvent {
  const at = new Date(0).toISOString();
  return type === "run_completed" ? { seq, at, type, output: "done" } : { seq, at, type, iteration: seq };
}

describe("ZapClient requests", () => {
  it("sends the key as a Bearer token, JSON bodies, and no cookie", async () => {
    const { seen, client } = await serve((_, res) => json(res, 201, { runId: "r1" }));
    await expect(client.startRun({ graph: "treasury", task: "hello" })).resolves.toEqual({ runId: "r1" });
    const [request] = seen;
    expect(request?.method).toBe("POST");
    expect(request?.url, "the trailing slash of baseUrl is not doubled").toBe("/api/runs");
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers.cookie, "a key is the whole credential").toBeUndefined();
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({ graph: "treasury", task: "hello" });
  });

  it("refuses a key that is not a Zap Studio key before sending anything", () => {
    expect(() => new ZapClient({ baseUrl: "http://127.0.0.1:1", apiKey: "sk-something" })).toThrow(/zap_/);
  });

  it("turns the error envelope into an ApiError with the server's status, code, message and issues", async () => {
    const issues = [{ path: "task", message: "describe the task" }];
    const { client } = await serve((_, res) => json(res, 422, { error: { code: "validation_failed", message: "Some fields are invalid", issues } }));
    const error = await failureOf(client.startRun({ graph: "treasury", task: "" }));
    expect({ status: error.status, code: error.code, message: error.message, issues: error.issues }).toEqual({ status: 422, code: "validation_failed", message: "Some fields are invalid", issues });
  });

  it("says a 401's one-line reason as the server wrote it", async () => {
    const message = "API key refused: this key was revoked at 2026-01-01T00:00:00.000Z";
    const { client } = await serve((_, res) => json(res, 401, { error: { code: "unauthenticated", message } }));
    const error = await failureOf(client.me());
    expect([error.status, error.code, error.message]).toEqual([401, "unauthenticated", message]);
  });

  it("turns a page that is not the app's envelope (a proxy's HTML) into an ApiError with a null code", async () => {
    const { client } = await serve((_, res) => {
      res.writeHead(502, "Bad Gateway", { "content-type": "text/html" });
      res.end("<html><body>Bad gateway</body></html>");
    });
    const error = await failureOf(client.getRun("r1"));
    expect([error.status, error.code]).toEqual([502, null]);
    expect(error.message).toBe("GET /api/runs/r1 failed (502 Bad Gateway)");
  });

  it("says when the server does not answer at all (status 0)", async () => {
    const { client } = await serve((_, res) => json(res, 200, {}));
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
    const error = await failureOf(client.me());
    expect([error.status, error.code]).toEqual([0, null]);
    expect(error.message).toMatch(/^Could not reach http:\/\/127\.0\.0\.1:\d+:/);
  });
});

describe("ZapClient and 429", () => {
  const throttled = { error: { code: "rate_limited", message: "This API key made more than 600 requests in 60 s; try again in 1 s" } };

  it("waits out Retry-After once and retries", async () => {
    let calls = 0;
    const { seen, client } = await serve((_, res) => (++calls === 1 ? json(res, 429, throttled, { "retry-after": "1" }) : json(res, 200, { user: { id: "u1" } })));
    const started = Date.now();
    await expect(client.me()).resolves.toEqual({ id: "u1" });
    expect(seen).toHaveLength(2);
    expect(Date.now() - started, "the retry waited the second the server asked for").toBeGreaterThanOrEqual(950);
  });

  it("throws RateLimitedApiError with the wait when the retry is refused too", async () => {
    const { seen, client } = await serve((_, res) => json(res, 429, throttled, { "retry-after": "0" }));
    const error = await failureOf(client.me());
    expect(error).toBeInstanceOf(RateLimitedApiError);
    expect([error.status, error.code, error.message]).toEqual([429, "rate_limited", throttled.error.message]);
    expect((error as RateLimitedApiError).retryAfterSeconds).toBe(0);
    expect(seen, "one retry, not a loop").toHaveLength(2);
  });

  it("does not wait longer than maxRetryAfterSeconds: it throws at once with the wait asked", async () => {
    const { seen, client } = await serve((_, res) => json(res, 429, throttled, { "retry-after": "120" }), { maxRetryAfterSeconds: 5 });
    const error = await failureOf(client.me());
    expect((error as RateLimitedApiError).retryAfterSeconds).toBe(120);
    expect(seen).toHaveLength(1);
  });
});

/** A server from before the stream route: `/stream` is not the app's (a plain 404), the rest as `handler`. */
const withoutStreamRoute =
  (handler: Handler): Handler =>
  (req, res) => {
    if (req.url.split("?")[0]?.endsWith("/stream")) {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("Not Found");
    }
    handler(req, res);
  };

describe("ZapClient.streamRun over Server-Sent Events", () => {
  const frame = (e: RunEvent) => `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify({ ...e, phrase: `phrase ${e.seq}` })}\n\n`;

  it("yields events with their phrase and, when asked, token frames; resumes with Last-Event-ID after a dropped connection", async () => {
    const { seen, client } = await serve((req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (!req.headers["last-event-id"]) {
        // The first connection sends two events and a piece of text, then drops (no `end`).
        res.write(`retry: 1000\n\n${frame(event(1, "iteration_started"))}`);
        res.write(`event: token\ndata: ${JSON.stringify({ type: "token", runId: "r1", iteration: 1, attempt: 1, agentName: "main", offset: 0, delta: "Hel", done: false })}\n\n`);
        return res.end(frame(event(2, "iteration_started")));
      }
      res.write(": keep-alive\n\n");
      res.end(`${frame(event(3, "run_completed"))}event: end\ndata: {"status":"completed","lastEventSeq":3}\n\n`);
    });
    const items: string[] = [];
    for await (const item of client.streamRun("r1", { tokens: true })) items.push(item.type === "token" ? `token:${item.delta}` : `${item.seq}:${item.phrase}`);
    expect(items).toEqual(["1:phrase 1", "token:Hel", "2:phrase 2", "3:phrase 3"]);
    expect(seen.map((r) => [r.url, r.headers["last-event-id"] ?? null, r.headers.authorization])).toEqual([
      ["/api/runs/r1/stream?since=0", null, `Bearer ${KEY}`],
      ["/api/runs/r1/stream?since=2", "2", `Bearer ${KEY}`],
    ]);
  });

  it("leaves token frames out unless asked, and throws the server's refusal (429) as RateLimitedApiError", async () => {
    const { client } = await serve((_, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`event: token\ndata: {"type":"token"}\n\n${frame(event(1, "run_completed"))}event: end\ndata: {}\n\n`);
    });
    const types: string[] = [];
    for await (const item of client.streamRun("r1")) types.push(item.type);
    expect(types).toEqual(["run_completed"]);

    const { client: capped } = await serve((_, res) => json(res, 429, { error: { code: "rate_limited", message: "At most 16 open live streams per user" } }, { "retry-after": "5" }));
    const error = await failureOf(
      (async () => {
        for await (const e of capped.streamRun("r1")) void e;
      })(),
    );
    expect(error).toBeInstanceOf(RateLimitedApiError);
    expect((error as RateLimitedApiError).retryAfterSeconds).toBe(5);
  });

  it("throws when the stream ends because the key may no longer read (end naming why), instead of passing for a finished run, and does not reconnect", async () => {
    const { seen, client } = await serve((_, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`${frame(event(1, "iteration_started"))}event: end\ndata: {"reason":"key_revoked","message":"API key refused: this key was revoked at 2026-01-01T00:00:00.000Z"}\n\n`);
    });
    const seqs: number[] = [];
    const error = await failureOf(
      (async () => {
        for await (const e of client.streamRun("r1")) seqs.push(e.seq);
      })(),
    );
    expect(seqs).toEqual([1]);
    expect(error).toBeInstanceOf(StreamAccessEnded);
    expect(error).toMatchObject({ status: 401, code: "unauthenticated", reason: "key_revoked", message: "API key refused: this key was revoked at 2026-01-01T00:00:00.000Z" });
    expect(seen).toHaveLength(1);
  });
});

describe("ZapClient.streamRun on a server without the stream route (polls the events page)", () => {
  /**
   * A run that writes one more event each time its events are read, and ends
   * (status completed) once it has written `total`; the summary may lag the
   * ledger (`summaryAhead`: it says completed before the last events are read).
   */
  function liveRun(total: number) {
    const written: RunEvent[] = [];
    const handler: Handler = withoutStreamRoute((req, res) => {
      const url = new URL(req.url, "http://x");
      if (url.pathname === "/api/runs/r1/events") {
        const since = Number(url.searchParams.get("since"));
        if (written.length < total) written.push(event(written.length + 1, written.length + 1 === total ? "run_completed" : "iteration_started"));
        const events = written.filter((e) => e.seq > since).slice(0, 2);
        const last = events.at(-1)?.seq ?? since;
        return json(res, 200, { events, nextSince: last, hasMore: written.some((e) => e.seq > last) });
      }
      if (url.pathname === "/api/runs/r1") return json(res, 200, summary(written.length === total ? "completed" : "thinking", written.length));
      json(res, 404, { error: { code: "not_found", message: "no such route" } });
    });
    return handler;
  }

  it("yields every event once, in order, asking only for events after the last one, and stops when the run has ended", async () => {
    const { seen, client } = await serve(liveRun(5));
    const events: RunEvent[] = [];
    for await (const e of client.streamRun("r1")) events.push(e);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(events.at(-1)?.type).toBe("run_completed");
    const sinces = seen.filter((r) => r.url.startsWith("/api/runs/r1/events")).map((r) => Number(new URL(r.url, "http://x").searchParams.get("since")));
    expect(sinces, "each poll asks after the last event yielded").toEqual([...sinces].sort((a, b) => a - b));
    expect(sinces.at(-1)).toBe(5);
    expect(seen.at(-1)?.url, "the stream ends on the summary that says the run ended").toBe("/api/runs/r1");
  });

  it("resumes from a sequence number without repeating what came before", async () => {
    const { client } = await serve(liveRun(4));
    const first: number[] = [];
    for await (const e of client.streamRun("r1")) {
      first.push(e.seq);
      if (e.seq === 2) break;
    }
    const rest: number[] = [];
    for await (const e of client.streamRun("r1", { since: first.at(-1) })) rest.push(e.seq);
    expect([first, rest]).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it("keeps reading when the summary says ended but counts events the page did not have yet", async () => {
    let reads = 0;
    const { client } = await serve(
      withoutStreamRoute((req, res) => {
        const url = new URL(req.url, "http://x");
        // The first events read finds nothing yet, while the run has already ended with event 1 written.
        if (url.pathname === "/api/runs/r1/events") return json(res, 200, ++reads === 1 || url.searchParams.get("since") === "1" ? { events: [], nextSince: 0, hasMore: false } : { events: [event(1, "run_completed")], nextSince: 1, hasMore: false });
        json(res, 200, summary("completed", 1));
      }),
    );
    const seqs: number[] = [];
    for await (const e of client.streamRun("r1")) seqs.push(e.seq);
    expect(seqs).toEqual([1]);
  });

  it("ends quietly when its signal aborts while the run waits", async () => {
    const { client } = await serve(withoutStreamRoute((req, res) => (req.url.includes("/events") ? json(res, 200, { events: [], nextSince: 0, hasMore: false }) : json(res, 200, summary("awaiting_approval", 0)))));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const seqs: number[] = [];
    for await (const e of client.streamRun("r1", { signal: controller.signal })) seqs.push(e.seq);
    expect(seqs).toEqual([]);
  });

  it("rides out a transient 503 and fails on an error that is not transient", async () => {
    let calls = 0;
    const { client } = await serve(
      withoutStreamRoute((req, res) => {
        calls++;
        if (calls === 1) return json(res, 503, { error: { code: "unavailable", message: "Temporal is restarting" } });
        if (req.url.includes("/events")) return json(res, 200, calls === 2 ? { events: [event(1, "run_completed")], nextSince: 1, hasMore: false } : { events: [], nextSince: 1, hasMore: false });
        json(res, 200, summary("completed", 1));
      }),
    );
    const seqs: number[] = [];
    for await (const e of client.streamRun("r1")) seqs.push(e.seq);
    expect(seqs).toEqual([1]);

    const { client: refused } = await serve((_, res) => json(res, 404, { error: { code: "not_found", message: "There is no run r9" } }));
    const error = await failureOf(
      (async () => {
        for await (const e of refused.streamRun("r9")) void e;
      })(),
    );
    expect([error.status, error.message]).toEqual([404, "There is no run r9"]);
  });
});

describe("ZapClient.waitForRun", () => {
  it("polls the summary until the run ends", async () => {
    let reads = 0;
    const { client } = await serve((_, res) => json(res, 200, ++reads < 3 ? summary("thinking", reads) : { run: { ...summary("completed", 3).run, output: "done" } }));
    const run = await client.waitForRun("r1");
    expect([run.status, run.output, reads]).toEqual(["completed", "done", 3]);
  });
});
