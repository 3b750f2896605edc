import { createServer } from "node:net";
import { Connection, ServiceError } from "@temporalio/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { mapError, isTemporalUnavailable } from "./error-mapper";
import { AppError, ValidationError, zodIssues } from "../../errors";

/** What @temporalio/client throws for a call while the server is down: a ServiceError around gRPC UNAVAILABLE. */
function temporalDownError(): ServiceError {
  const grpc = Object.assign(new Error("14 UNAVAILABLE: No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:7233."), {
    code: 14,
    details: "No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:7233.",
    metadata: {},
  });
  return new ServiceError("Failed to start Workflow", { cause: grpc });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("mapError", () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  afterEach(() => logged.mockClear());

  it("maps Temporal being unreachable (gRPC UNAVAILABLE inside a ServiceError) to 503, logged with context", () => {
    const error = temporalDownError();
    const mapped = mapError(error, "POST /api/runs");
    expect(mapped.status).toBe(503);
    expect(mapped.body).toEqual({ code: "unavailable", message: "The engine (Temporal) is not reachable; check /api/health" });
    expect(logged).toHaveBeenCalledWith("POST /api/runs: Temporal is unreachable:", error);
  });

  it("maps the client's real connect failure to 503", async () => {
    const failure = await Connection.connect({ address: `127.0.0.1:${await closedPort()}`, connectTimeout: "300ms" }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure, "connecting to a closed port fails").toBeInstanceOf(Error);
    expect(isTemporalUnavailable(failure)).toBe(true);
    expect(mapError(failure, "action start-run").status).toBe(503);
  });

  it("hides an unknown error behind a generic 500 and logs it with context", () => {
    const error = new Error("connect ECONNREFUSED postgres://admin:hunter2@db:5432");
    const mapped = mapError(error, "GET /api/users");
    expect(mapped.status, "a database outage is not Temporal being down").toBe(500);
    expect(mapped.body).toEqual({ code: "internal", message: "Something went wrong on our side. It has been logged." });
    expect(JSON.stringify(mapped.body)).not.toContain("hunter2");
    expect(logged).toHaveBeenCalledWith("GET /api/users:", error);
  });

  it("treats a thrown non-Error like any unknown error", () => {
    expect(mapError("a string", "x")).toMatchObject({ status: 500, body: { code: "internal" } });
  });

  it("keeps a zod validation failure's paths, as a 422", () => {
    const parsed = z.object({ agents: z.array(z.object({ name: z.string() })) }).safeParse({ agents: [{ name: 1 }] });
    if (parsed.success) throw new Error("expected a failure");
    const mapped = mapError(new ValidationError(zodIssues(parsed.error.issues)), "x");
    expect(mapped.status).toBe(422);
    expect(mapped.body).toMatchObject({ code: "validation_failed", issues: [{ path: "agents[0].name" }] });
    expect(logged, "a client's mistake is not logged as a server failure").not.toHaveBeenCalled();
  });

  it("passes other AppErrors through unlogged", () => {
    expect(mapError(new AppError("not_found", 404, 'There is no run "r"'), "x")).toEqual({ status: 404, body: { code: "not_found", message: 'There is no run "r"' } });
    expect(logged).not.toHaveBeenCalled();
  });
});
