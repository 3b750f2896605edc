import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../lib/contract/types";
import { ConversationCache } from "./conversation-cache";

const user = (content: string): ChatMessage => ({ role: "user", content });

describe("ConversationCache", () => {
  it("answers only for exactly the prefix it holds", () => {
    const cache = new ConversationCache();
    cache.set("exec-1", [user("a"), user("b")]);
    expect(cache.get("exec-1", 2)?.map((m) => m.content)).toEqual(["a", "b"]);
    expect(cache.get("exec-1", 1), "a shorter prefix is read from the ledger").toBeNull();
    expect(cache.get("exec-1", 3), "a longer one too").toBeNull();
    expect(cache.get("exec-2", 2), "another execution (reset, continue-as-new) never shares it").toBeNull();
  });

  it("stays under its character budget, dropping the least recently used first", () => {
    const cache = new ConversationCache(1000);
    // 234 characters each (content plus a fixed allowance): four fit, a fifth does not.
    cache.set("old", [user("x".repeat(170))]);
    cache.set("used", [user("y".repeat(170))]);
    cache.set("other", [user("v".repeat(170))]);
    expect(cache.get("old", 1)).not.toBeNull();
    cache.set("new", [user("z".repeat(170))]);
    cache.set("newer", [user("w".repeat(170))]);
    expect(cache.get("used", 1), "least recently used, evicted").toBeNull();
    expect(cache.get("old", 1)).not.toBeNull();
    expect(cache.get("newer", 1)).not.toBeNull();
  });

  it("does not keep a conversation that alone would take over a quarter of the budget", () => {
    const cache = new ConversationCache(1000);
    cache.set("huge", [user("x".repeat(400))]);
    expect(cache.get("huge", 1)).toBeNull();
  });
});
