import { describe, expect, it } from "vitest";
import { AttemptFailures, retryReason } from "./agent";

describe("retryReason", () => {
  it("says nothing on a first attempt", () => {
    expect(retryReason(1, undefined, "me/1")).toBeUndefined();
  });

  it("tells a lost worker from a failed attempt by the last heartbeat", () => {
    expect(retryReason(2, { worker: "host/7", attempt: 1 }, "host/9")).toBe("attempt 1 stopped heartbeating on worker host/7 (heartbeat timeout: the worker was lost); retried on host/9");
    expect(retryReason(3, { worker: "host/9", attempt: 2 }, "host/9")).toMatch(/^attempt 2 failed on this worker/);
    expect(retryReason(2, undefined, "host/9")).toMatch(/before its first heartbeat/);
  });

  it("quotes the failure a failing attempt left in its last heartbeat", () => {
    expect(retryReason(2, { worker: "host/9", attempt: 1, failure: "model provider answered 503: overloaded" }, "host/9")).toBe("attempt 1 failed: model provider answered 503: overloaded; retried");
    expect(retryReason(2, { worker: "host/7", attempt: 1, failure: "busy" }, "host/9")).toBe("attempt 1 failed: busy (on worker host/7); retried");
  });
});

describe("AttemptFailures (local activities)", () => {
  it("hands the previous attempt's failure to the next attempt of the same call only", () => {
    const failures = new AttemptFailures();
    expect(failures.take("run:inference:1", 1), "a first attempt has no reason").toBeUndefined();
    failures.record("run:inference:1", 1, "simulated a transient failure");
    expect(failures.take("run:inference:2", 2), "another call does not see it").toMatch(/did not finish in this worker process/);
    expect(failures.take("run:inference:1", 2)).toBe("attempt 1 failed: simulated a transient failure; retried");
    failures.record("run:inference:1", 2, "second failure");
    expect(failures.take("run:inference:1", 3), "the last failure is the one reported").toBe("attempt 2 failed: second failure; retried");
  });

  it("stays bounded, dropping the oldest calls first", () => {
    const failures = new AttemptFailures(2);
    failures.record("a", 1, "a failed");
    failures.record("b", 1, "b failed");
    failures.record("c", 1, "c failed");
    expect(failures.take("a", 2)).toMatch(/did not finish/);
    expect(failures.take("b", 2)).toBe("attempt 1 failed: b failed; retried");
    expect(failures.take("c", 2)).toBe("attempt 1 failed: c failed; retried");
  });
});
