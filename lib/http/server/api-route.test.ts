import { afterEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { z } from "zod";
import { ServiceError } from "@temporalio/client";
import { apiRoute, parseJsonBody, parseParam } from "./api-route";
import type { SessionUser } from "../../auth/server/session";
import { RateLimitedError } from "../../errors";

const builder: SessionUser = { id: "u1", email: "builder@zap.local", name: "Builder", role: "builder" };
vi.mock("../../auth/server/session", () => ({ requireUser: vi.fn(async () => builder) }));

const temporalDown = () =>
  new ServiceError("Failed to start Workflow", { cause: Object.assign(new Error("14 UNAVAILABLE: No connection established"), { code: 14, details: "No connection established", metadata: {} }) });

const post = (body: string) => new NextRequest("http://127.0.0.1/api/things/t-1", { method: "POST", body, headers: { "content-type": "application/json", origin: "http://127.0.0.1", host: "127.0.0.1" } });
const context = { params: Promise.resolve({ id: "t-1" }) };

describe("apiRoute maps errors with the shared mapper", () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  afterEach(() => logged.mockClear());

  it("answers 503 when Temporal is unreachable", async () => {
    const route = apiRoute<{ id: string }>({ permission: "runs:launch", handler: () => Promise.reject(temporalDown()) });
    const response = await route(post("{}"), context);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: { code: "unavailable", message: "The engine (Temporal) is not reachable; check /api/health" } });
    expect(logged).toHaveBeenCalledWith("POST /api/things/t-1: Temporal is unreachable:", expect.any(ServiceError));
  });

  it("answers 422 with bracketed paths for a body that fails its schema", async () => {
    const schema = z.object({ agents: z.array(z.object({ name: z.string() })) });
    const route = apiRoute<{ id: string }>({
      permission: "runs:launch",
      handler: async ({ request }) => Response.json(await parseJsonBody(request, schema)),
    });
    const response = await route(post('{"agents":[{"name":"a"},{}]}'), context);
    expect(response.status).toBe(422);
    expect((await response.json()).error.issues).toEqual([{ path: "agents[1].name", message: expect.any(String) }]);
  });

  it("answers 422 naming a path parameter that fails its schema", async () => {
    const route = apiRoute<{ id: string }>({
      permission: "runs:launch",
      handler: async ({ params }) => Response.json({ id: parseParam(z.string().regex(/^u-/, "starts with u-"), params.id, "id") }),
    });
    const response = await route(post("{}"), context);
    expect(response.status).toBe(422);
    expect((await response.json()).error.issues).toEqual([{ path: "id", message: "starts with u-" }]);
  });

  it("answers a generic 500 for an unknown error, without its message", async () => {
    const route = apiRoute<{ id: string }>({ permission: "runs:launch", handler: () => Promise.reject(new Error("secret detail")) });
    const response = await route(post("{}"), context);
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain("secret");
  });
});

describe("apiRoute guards mutating requests", () => {
  const echo = apiRoute<{ id: string }>({ permission: "runs:launch", handler: async ({ request }) => Response.json(await parseJsonBody(request, z.unknown())) });
  const request = (init: { method?: string; body?: BodyInit; headers?: Record<string, string> }) =>
    new NextRequest("http://127.0.0.1/api/things/t-1", { method: init.method ?? "POST", body: init.body, headers: init.headers, duplex: "half" } as ConstructorParameters<typeof NextRequest>[1]);
  const json = { "content-type": "application/json", origin: "http://127.0.0.1", host: "127.0.0.1" };

  it("refuses another origin, and a missing one, with 403", async () => {
    for (const origin of ["https://evil.example", undefined]) {
      const response = await echo(request({ body: "{}", headers: { "content-type": "application/json", host: "127.0.0.1", ...(origin ? { origin } : {}) } }), context);
      expect(response.status, `origin ${origin}`).toBe(403);
      expect((await response.json()).error.message).toBe("Cross-origin requests are not accepted");
    }
  });

  it("refuses a body that is not application/json with 415", async () => {
    const response = await echo(request({ body: "{}", headers: { "content-type": "text/plain", origin: "http://127.0.0.1", host: "127.0.0.1" } }), context);
    expect(response.status).toBe(415);
    const untyped = await echo(request({ body: "{}", headers: { origin: "http://127.0.0.1", host: "127.0.0.1" } }), context);
    expect(untyped.status, "a body without a Content-Type").toBe(415);
  });

  it("lets a body-less DELETE through without a Content-Type", async () => {
    const route = apiRoute<{ id: string }>({ permission: "runs:launch", handler: async () => new Response(null, { status: 204 }) });
    expect((await route(request({ method: "DELETE", headers: { origin: "http://127.0.0.1", host: "127.0.0.1" } }), context)).status).toBe(204);
  });

  it("refuses a declared Content-Length over the cap with 413 before reading", async () => {
    const response = await echo(request({ body: "{}", headers: { ...json, "content-length": String(300 * 1024) } }), context);
    expect(response.status).toBe(413);
  });

  it("refuses a streamed body that grows past the cap with 413", async () => {
    const chunk = new TextEncoder().encode(`"${"x".repeat(64 * 1024)}`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        if (sent > 100) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await echo(request({ body: stream, headers: json }), context);
    expect(response.status).toBe(413);
    expect(sent, "the stream is not read to its end").toBeLessThan(10);
  });

  it("takes a larger body on a route that allows it", async () => {
    const big = apiRoute<{ id: string }>({ permission: "runs:launch", maxBodyBytes: 1024 * 1024, handler: async ({ request }) => Response.json({ length: String(await parseJsonBody(request, z.string())).length }) });
    const response = await big(request({ body: JSON.stringify("x".repeat(500 * 1024)), headers: json }), context);
    expect(response.status).toBe(200);
  });

  it("sends Retry-After with a 429", async () => {
    const route = apiRoute<{ id: string }>({ permission: "runs:launch", handler: () => Promise.reject(new RateLimitedError(42)) });
    const response = await route(post("{}"), context);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("42");
  });
});
