import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../contract/types";
import { applyDraft, draftChanges, nothingToSaveMessage, notInDraft, type DraftSettings } from "./draft";

const base: DraftSettings = { systemPrompt: "You manage the demo ledger.", model: "demo/treasurer", temperature: 0.2, maxOutputTokens: 1024 };

describe("what a playground draft would save", () => {
  it("is nothing when only the conversation changed: the agent's settings are those of its base", () => {
    expect(draftChanges(base, { systemPrompt: base.systemPrompt, temperature: 0.2 })).toEqual([]);
    expect(nothingToSaveMessage("treasurer", 3)).toMatch(/^Nothing to save: treasurer's system prompt, model, temperature and output cap are those of v3\./);
  });

  it("names each changed setting with its value before and after; a field left out keeps the base's", () => {
    const edit = { systemPrompt: "Be brief.", model: "demo/assistant", temperature: 0.7, maxOutputTokens: 256 };
    expect(draftChanges(base, edit)).toEqual([
      { field: "systemPrompt", label: "system prompt", before: base.systemPrompt, after: "Be brief." },
      { field: "model", label: "model", before: "demo/treasurer", after: "demo/assistant" },
      { field: "temperature", label: "temperature", before: "0.2", after: "0.7" },
      { field: "maxOutputTokens", label: "max output tokens", before: "1024", after: "256" },
    ]);
    expect(applyDraft({ ...base, model: "inherit" }, { systemPrompt: "x", temperature: 0.2 }), "an agent that inherits its model keeps inheriting").toMatchObject({ model: "inherit", maxOutputTokens: 1024 });
  });

  it("says what no version holds: the conversation's edits and tools switched off, never the system prompt", () => {
    const original: ChatMessage[] = [
      { role: "system", content: "p" },
      { role: "user", content: "hello" },
      { role: "assistant", content: "hi" },
    ];
    const edited: ChatMessage[] = [{ role: "system", content: "changed prompt" }, { role: "user", content: "answer: edited" }, original[2]!, { role: "user", content: "more" }];
    expect(notInDraft(original, edited, 2)).toEqual(["1 edited message of the conversation", "1 added message", "2 tools switched off (an agent's tools are set in the designer)"]);
    expect(notInDraft(original, original.slice(0, 2), 0)).toEqual(["1 removed message"]);
    expect(notInDraft(original, [{ role: "system", content: "other" }, ...original.slice(1)], 0)).toEqual([]);
  });
});
