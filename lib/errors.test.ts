import { describe, expect, it, vi } from "vitest";
import { AppError, ConflictError, ForbiddenError, formatPath, toErrorBody, UnauthenticatedError, ValidationError, zodIssues } from "./errors";
import { z } from "zod";

describe("toErrorBody", () => {
  it.each([
    [new UnauthenticatedError(), 401, "unauthenticated"],
    [new ForbiddenError(), 403, "forbidden"],
    [new AppError("not_found", 404, 'There is no user with id "u"'), 404, "not_found"],
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

});

describe("paths: one format for users everywhere", () => {
  it("turns zod issues into bracketed paths, as the graph validator writes them", () => {
    const result = z
      .object({ agents: z.array(z.object({ name: z.string(), subAgents: z.array(z.string()) })) })
      .safeParse({ agents: [{ name: "a", subAgents: [] }, { name: 3, subAgents: ["b", 4] }] });
    expect(result.success).toBe(false);
    if (!result.success) expect(zodIssues(result.error.issues).map((i) => i.path)).toEqual(["agents[1].name", "agents[1].subAgents[1]"]);
  });

  it("names the root when the whole value is wrong", () => {
    const result = z.object({ a: z.string() }).safeParse("nope");
    if (!result.success) expect(zodIssues(result.error.issues)[0]?.path).toBe("(root)");
  });

  it.each<[PropertyKey[], string]>([
    [["agents", 2, "subAgents", 0], "agents[2].subAgents[0]"],
    [["limits", "maxDepth"], "limits.maxDepth"],
    [[0, "name"], "[0].name"],
    [["transport", "env", "MY-KEY"], 'transport.env["MY-KEY"]'],
    [["context", "a.b"], 'context["a.b"]'],
    [[], ""],
  ])("formats %j as %s", (path, expected) => {
    expect(formatPath(path)).toBe(expected);
  });
});

describe("AppError across module instances", () => {
  it("is recognised by its brand when another copy of the module threw it (Next's route and action graphs)", async () => {
    vi.resetModules();
    // A query string makes Vite load a second instance of the module, as Next's second graph does.
    const other = (await import(/* @vite-ignore */ `./errors?copy=${Date.now()}`)) as typeof import("./errors");
    const foreign: unknown = new other.ValidationError([{ path: "task", message: "empty" }]);
    expect(other.AppError).not.toBe(AppError);
    expect(foreign instanceof AppError).toBe(true);
    // Subclasses keep the ordinary check, and a plain Error is no AppError.
    expect(new AppError("conflict", 409, "x") instanceof ValidationError).toBe(false);
    expect(new ValidationError([]) instanceof ValidationError).toBe(true);
    expect(new Error("x") instanceof AppError).toBe(false);
    const nothing: unknown = null;
    expect(nothing instanceof AppError).toBe(false);
  });
});
