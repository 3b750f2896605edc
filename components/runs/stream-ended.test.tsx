// What a live page says once its stream ended because the caller's access did
// (issue 36 §1: every stream ends with `end` {reason, message}), and that the runs
// list then stops polling: a read would only be refused again.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StreamEndedAlert, streamEndedLine } from "./stream-ended";
import { runsListRefetchMs } from "./use-live-runs";
import { accessEndOf } from "@/lib/runs/stream-end";
import type { RunListPage } from "@/lib/runs/schemas";

describe("the stream-ended alert", () => {
  it("says live updates stopped, why, and to sign in again, as an alert", () => {
    const end = accessEndOf(JSON.stringify({ reason: "user_disabled", message: "Your account was disabled" }));
    expect(end).not.toBeNull();
    const html = renderToStaticMarkup(createElement(StreamEndedAlert, { end }));
    expect(html).toContain('data-testid="stream-ended"');
    expect(html).toContain('role="alert"');
    expect(html).toContain("Live updates stopped: your account was disabled. Sign in again.");
    expect(html).toContain('href="/sign-in"');
  });

  it("does not say 'sign in' twice when the reason already does", () => {
    expect(streamEndedLine({ reason: "session_ended", message: "This session was signed out; sign in again" })).toBe("Live updates stopped: this session was signed out; sign in again.");
    expect(streamEndedLine({ reason: "password_reset", message: "Your password was reset: sign in and choose a new one" })).toBe(
      "Live updates stopped: your password was reset: sign in and choose a new one.",
    );
  });

  it("shows nothing while the stream goes on", () => {
    expect(renderToStaticMarkup(createElement(StreamEndedAlert, { end: null }))).toBe("");
  });
});

describe("the runs list once its feed ended on the caller's access", () => {
  it("does not poll, whatever the page holds", () => {
    const page = { rows: [{ status: "running", subRuns: [] }], indexBehind: true } as unknown as RunListPage;
    expect(runsListRefetchMs("ended", page)).toBe(false);
    expect(runsListRefetchMs("ended", undefined)).toBe(false);
  });
});
