import { describe, expect, it } from "vitest";
import { attributeRows, keyInWords, spanProvenance } from "./span-attributes";

const edited = { edited: true, editedBy: "builder@zap.local", editedAt: "2026-11-29T08:00:00.000Z" };

describe("a span's attributes in words", () => {
  it("says where a taped run's step came from: replayed, or edited by someone, never both", () => {
    expect(spanProvenance({ replayed: true })).toEqual({ kind: "replayed" });
    expect(spanProvenance({ replayed: true, ...edited }), "a written step is never a recording").toEqual({ kind: "edited", mark: { by: "builder@zap.local", at: edited.editedAt } });
    expect(spanProvenance({ callId: "c1" })).toBeNull();
    expect(spanProvenance(undefined)).toBeNull();
  });

  it("lists the recording's cost and model in words, never the engine's keys", () => {
    const rows = attributeRows({ replayed: true, recordedInputTokens: 1200, recordedOutputTokens: 34, recordedModel: "demo/treasurer", toolCallsFromText: true, ...edited });
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ["recorded tokens", "1,200 in · 34 out (what the recording cost; the replay cost nothing)"],
      ["recorded model", "demo/treasurer"],
      ["tool calls read from the answer's text", "yes"],
    ]);
    const labels = rows.map((r) => r.label).join(" ");
    for (const key of ["recordedInputTokens", "recordedModel", "replayed", "editedBy"]) expect(labels).not.toContain(key);
  });

  it("puts any other key into words, and a decided approval's source into a sentence", () => {
    expect(keyInWords("childRunId")).toBe("sub-run");
    expect(keyInWords("someNewKey")).toBe("some new key");
    expect(keyInWords("validation_ok")).toBe("validation ok");
    expect(attributeRows({ outcome: "ok", approval: "recorded", callId: "c1" }).map((r) => `${r.label}: ${r.value}`)).toEqual(["outcome: ok", "approval: as recorded (not asked again)", "call id: c1"]);
    expect(attributeRows({ outcome: "ok", callId: "c1" }, (key) => key !== "outcome").map((r) => r.label)).toEqual(["call id"]);
  });

  it("names an online evaluator's score on the run's span, to two decimals", () => {
    expect(attributeRows({ "onlineScore:support-quality": 0.667, agentName: "desk" })).toEqual([
      { key: "onlineScore:support-quality", label: "online score: support-quality", value: "0.67" },
      { key: "agentName", label: "agent name", value: "desk" },
    ]);
  });
});
