import { describe, expect, it } from "vitest";
import { ConflictError, ForbiddenError, NotFoundError, toErrorBody, UnauthenticatedError, ValidationError, zodIssues } from "./errors";
import { z } from "zod";

describe("toErrorBody", () => {
  it.each([
    [new UnauthenticatedError(), 401, "unauthenticated"],
    [new ForbiddenError(), 403, "forbidden"],
    [new NotFoundError("That user"), 404, "not_found"],
    [new ConflictError("taken"), 409, "conflict"],
    [new ValidationError([{ path: "role", message: "bad" }]), 422, "validation_failed"],
  ])("maps %s to its status and code", (error, status, code) => {
    const mapped = toErrorBody(error);
    expect(mapped.status).toBe(status);
    expect(mapped.body.code).toBe(code);
  });

  it("hides the message of an unexpected error", () => {
    const mapped = toErrorBody(new Error("connect ECONNREFUSED postgres://admin:hunter2@db"));
    expect(mapped.status).toBe(500);
    expect(JSON.stringify(mapped.body)).not.toContain("hunter2");
    expect(mapped.body.message).toMatch(/went wrong/);
  });

  it("turns zod issues into dotted paths", () => {
    const result = z.object({ agents: z.array(z.object({ name: z.string() })) }).safeParse({ agents: [{ name: "a" }, { name: 3 }] });
    expect(result.success).toBe(false);
    if (!result.success) expect(zodIssues(result.error.issues)[0]?.path).toBe("agents.1.name");
  });
});
