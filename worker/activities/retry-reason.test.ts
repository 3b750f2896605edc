import { describe, expect, it } from "vitest";
import { retryReason } from "./agent";

describe("retryReason", () => {
  it("says nothing on a first attempt", () => {
    expect(retryReason(1, undefined, "me/1")).toBeUndefined();
  });

  it("tells a lost worker from a failed attempt by the last heartbeat", () => {
    expect(retryReason(2, { worker: "host/7", attempt: 1 }, "host/9")).toBe("attempt 1 stopped heartbeating on worker host/7 (heartbeat timeout: the worker was lost); retried on host/9");
    expect(retryReason(3, { worker: "host/9", attempt: 2 }, "host/9")).toMatch(/^attempt 2 failed on this worker/);
    expect(retryReason(2, undefined, "host/9")).toMatch(/before its first heartbeat/);
  });
});
