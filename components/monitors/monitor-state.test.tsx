import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MonitorState, webhookText } from "./monitor-state";

const state = (monitor: Parameters<typeof MonitorState>[0]["monitor"]) => renderToStaticMarkup(createElement(MonitorState, { monitor })).replace(/<[^>]+>/g, "");

describe("a monitor's state", () => {
  it("is not ok before any evaluation has read its series", () => {
    expect(state({ enabled: true, firing: null, lastEvaluatedAt: null })).toBe("not evaluated yet");
    expect(state({ enabled: true, firing: null, lastEvaluatedAt: "2026-11-29T01:00:00.000Z" })).toBe("ok");
    expect(state({ enabled: false, firing: null, lastEvaluatedAt: null })).toBe("disabled");
  });
});

describe("an alert's webhook column", () => {
  const firing = { state: "firing" as const, notified: { fired: null, resolved: null } };
  it("says nothing was owed where no webhook is configured", () => {
    expect(webhookText(firing, false)).toBe("no webhook configured");
    expect(webhookText(firing, true)).toBe("not sent yet");
  });

  it("says what was sent", () => {
    expect(webhookText({ state: "resolved", notified: { fired: "2026-11-29T01:00:00.000Z", resolved: null } }, true)).toBe("fired sent, resolved owed");
    expect(webhookText({ state: "resolved", notified: { fired: "2026-11-29T01:00:00.000Z", resolved: "2026-11-29T01:05:00.000Z" } }, true)).toBe("sent");
  });
});
