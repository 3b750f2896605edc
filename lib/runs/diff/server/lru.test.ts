import { describe, expect, it } from "vitest";
import { SizedLru } from "./lru";

describe("SizedLru", () => {
  it("evicts the least recently used entry past its entry bound", () => {
    const lru = new SizedLru<number>(2, 100);
    lru.set("a", 1, 1);
    lru.set("b", 2, 1);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3, 1);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe(1);
    expect(lru.get("c")).toBe(3);
  });

  it("evicts past its size bound, and never keeps an entry larger than the bound", () => {
    const lru = new SizedLru<string>(10, 10);
    lru.set("a", "x", 6);
    lru.set("b", "y", 6);
    expect(lru.get("a")).toBeUndefined();
    expect(lru.weight).toBe(6);
    lru.set("huge", "z", 11);
    expect(lru.get("huge")).toBeUndefined();
    expect(lru.get("b")).toBe("y");
  });

  it("replaces an entry under the same key, its size counted once", () => {
    const lru = new SizedLru<number>(10, 10);
    lru.set("a", 1, 4);
    lru.set("a", 2, 5);
    expect(lru.get("a")).toBe(2);
    expect(lru.weight).toBe(5);
    expect(lru.size).toBe(1);
  });
});
