import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ServiceError } from "@temporalio/client";
import { defineAction } from "./action";
import type { SessionUser } from "../../auth/server/session";

const builder: SessionUser = { id: "u1", email: "builder@zap.local", name: "Builder", role: "builder" };
vi.mock("../../auth/server/session", () => ({ requireUser: vi.fn(async () => builder) }));

const temporalDown = () =>
  new ServiceError("Failed to start Workflow", { cause: Object.assign(new Error("14 UNAVAILABLE: No connection established"), { code: 14, details: "No connection established", metadata: {} }) });

describe("defineAction maps errors like the route handlers do", () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  afterEach(() => logged.mockClear());

  const action = (handler: () => Promise<string>) =>
    defineAction({ name: "test-action", permission: "runs:launch", input: z.object({ agents: z.array(z.object({ name: z.string().min(1) })) }), handler });

  it("reports Temporal being unreachable as `unavailable` (the 503 of the API), not as an internal error", async () => {
    const result = await action(() => Promise.reject(temporalDown()))({ agents: [] });
    expect(result).toEqual({ ok: false, error: { code: "unavailable", message: "The engine (Temporal) is not reachable; check /api/health" } });
    expect(logged).toHaveBeenCalledWith("action test-action: Temporal is unreachable:", expect.any(ServiceError));
  });

  it("reports invalid input with bracketed paths", async () => {
    const result = await action(() => Promise.resolve("never"))({ agents: [{ name: "ok" }, { name: "" }] });
    expect(result).toMatchObject({ ok: false, error: { code: "validation_failed", issues: [{ path: "agents[1].name" }] } });
  });

  it("hides an unknown error's message", async () => {
    const result = await action(() => Promise.reject(new Error("secret detail")))({ agents: [] });
    expect(result).toEqual({ ok: false, error: { code: "internal", message: "Something went wrong on our side. It has been logged." } });
    expect(logged).toHaveBeenCalledWith("action test-action:", expect.any(Error));
  });

  it("returns the handler's data", async () => {
    expect(await action(() => Promise.resolve("done"))({ agents: [] })).toEqual({ ok: true, data: "done" });
  });
});
