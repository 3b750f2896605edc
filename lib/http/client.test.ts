import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, getJson } from "./client";

function answer(status: number, body: string, contentType = "application/json") {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => new Response(body, { status, headers: { "content-type": contentType } }));
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the request should have failed").toBeInstanceOf(ApiError);
  return error as ApiError;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("getJson", () => {
  it("returns the body of a successful answer, never from the HTTP cache", async () => {
    const fetchMock = answer(200, JSON.stringify({ count: 3 }));
    expect(await getJson<{ count: number }>("/api/approvals/count")).toEqual({ count: 3 });
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ cache: "no-store" });
  });

  it("turns the app's error envelope into an ApiError with the server's message, status, code and issues", async () => {
    answer(422, JSON.stringify({ error: { code: "validation_failed", message: "since: must be a number", issues: [{ path: "since", message: "must be a number" }] } }));
    const error = await failure(getJson("/api/runs/x/tail?since=a", { what: "the trace" }));
    expect(error.message).toBe("since: must be a number");
    expect(error.status).toBe(422);
    expect(error.code).toBe("validation_failed");
    expect(error.issues).toEqual([{ path: "since", message: "must be a number" }]);
  });

  it("names the resource and the status when the answer is not the app's envelope (a proxy's error page)", async () => {
    answer(502, "<html>Bad gateway</html>", "text/html");
    const error = await failure(getJson("/api/approvals", { what: "the inbox" }));
    expect(error.message).toBe("Could not load the inbox (502)");
    expect(error.status).toBe(502);
    expect(error.code).toBeNull();
  });

  it("does not pass off a successful answer that is not JSON as data", async () => {
    answer(200, "<html>sign in</html>", "text/html");
    expect((await failure(getJson("/api/runs/list", { what: "runs" }))).message).toBe("Could not load runs: the answer was not JSON");
  });

  it("reports a server that did not answer with status 0", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const error = await failure(getJson("/api/runs/list", { what: "runs" }));
    expect(error.status).toBe(0);
    expect(error.message).toBe("Could not load runs: the server did not answer");
  });
});
