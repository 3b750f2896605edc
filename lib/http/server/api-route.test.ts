import { afterEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { z } from "zod";
import { ServiceError } from "@temporalio/client";
import { apiRoute, parseJsonBody, parseParam } from "./api-route";
import type { SessionUser } from "../../auth/server/session";

const builder: SessionUser = { id: "u1", email: "builder@zap.local", name: "Builder", role: "builder" };
vi.mock("../../auth/server/session", () => ({ requireUser: vi.fn(async () => builder) }));

const temporalDown = () =>
  new ServiceError("Failed to start Workflow", { cause: Object.assign(new Error("14 UNAVAILABLE: No connection established"), { code: 14, details: "No connection established", metadata: {} }) });

const post = (body: string) => new NextRequest("http://127.0.0.1/api/things/t-1", { method: "POST", body, headers: { "content-type": "application/json" } });
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
