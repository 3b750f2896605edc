import { describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { z } from "zod";
import type { SessionUser } from "../../auth/server/session";
import { operation } from "./operation";
import { operationRoute } from "./operation-adapters";

const admin: SessionUser = { id: "u1", email: "admin@zap.local", name: "Admin", role: "admin" };
vi.mock("../../auth/server/session", () => ({ requireUser: vi.fn(async () => admin) }));
vi.mock("server-only", () => ({}));

const archived: string[] = [];
const archive = operation({
  name: "archive-thing",
  permission: "agents:edit",
  input: z.strictObject({ name: z.string() }),
  run: async ({ input }) => {
    archived.push(input.name);
    return { archived: input.name };
  },
});
const route = operationRoute(archive, { path: (params: { name: string }) => ({ name: params.name }), body: false });
const context = { params: Promise.resolve({ name: "t-1" }) };
const post = (body?: string) =>
  new NextRequest("http://127.0.0.1/api/things/t-1/archive", { method: "POST", ...(body === undefined ? {} : { body }), headers: { "content-type": "application/json", origin: "http://127.0.0.1", host: "127.0.0.1" } });

describe("a route whose operation takes its input from the path", () => {
  it("acts on no body or an empty object", async () => {
    archived.length = 0;
    expect((await route(post(), context)).status).toBe(200);
    expect((await route(post("{}"), context)).status).toBe(200);
    expect(archived).toEqual(["t-1", "t-1"]);
  });

  it("refuses a body that says anything, naming each key, and does not act", async () => {
    archived.length = 0;
    const response = await route(post('{"name":"other","force":true}'), context);
    expect(response.status).toBe(422);
    expect((await response.json()).error.issues.map((i: { path: string }) => i.path)).toEqual(["name", "force"]);
    expect((await route(post("[1]"), context)).status).toBe(422);
    expect(archived).toEqual([]);
  });
});
