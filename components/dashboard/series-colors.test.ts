// One colour per series key: the same on every chart, red only for failures.
import { describe, expect, it } from "vitest";
import { assignColors, FAILURE_COLOR, KEY_PALETTE, keyColor } from "./series-colors";

describe("a series key's colour", () => {
  it("is a function of the key, not of its place in a chart", () => {
    expect(keyColor("research-loop")).toBe(keyColor("research-loop"));
    const runs = assignColors(["support-triage", "research-loop", "help-desk"]);
    const failures = assignColors(["research-loop"]);
    expect(failures.get("research-loop"), "ranked first in one chart, third in the other: one colour").toBe(runs.get("research-loop"));
  });

  it("is red for failure-like keys and never for any other", () => {
    for (const key of ["failed", "error", "rejected", "refused"]) expect(keyColor(key), key).toBe(FAILURE_COLOR);
    expect(KEY_PALETTE, "the hashed palette has no red").not.toContain(FAILURE_COLOR);
    const others = ["ok", "completed", "approved", "granted", "cancelled", "running", "expired", "p50", "p95", "p99", "", "other", "model_error", "budget_exceeded"];
    for (let i = 0; i < 200; i++) others.push(`graph-${i}`, `model/${i}`);
    for (const key of others) expect(keyColor(key), key).not.toBe(FAILURE_COLOR);
    expect(keyColor("ok"), "an ok outcome is success green, as completed").toBe(keyColor("completed"));
  });

  it("tells a page's keys apart while the palette lasts, the same map whatever order they come in", () => {
    const keys = Array.from({ length: KEY_PALETTE.length }, (_, i) => `graph-${i}`);
    const colors = assignColors(keys);
    expect(new Set(keys.map((key) => colors.get(key))).size, "no two keys share a colour").toBe(keys.length);
    expect(assignColors([...keys].reverse())).toEqual(colors);
    const more = assignColors([...keys, "graph-extra", "failed", "completed"]);
    expect(more.get("failed")).toBe(FAILURE_COLOR);
    expect(more.get("completed")).toBe(keyColor("completed"));
    expect(KEY_PALETTE).toContain(more.get("graph-extra"));
  });
});
