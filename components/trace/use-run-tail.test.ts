import { describe, expect, it } from "vitest";
import { laterPages } from "./use-run-tail";

describe("laterPages", () => {
  it("requests the pages after the first a few ahead and yields them in order", async () => {
    const requested: number[] = [];
    const resolvers = new Map<number, (value: string) => void>();
    const pages = laterPages(
      95,
      20,
      (offset) => {
        requested.push(offset);
        return new Promise<string>((resolve) => resolvers.set(offset, resolve));
      },
      25,
      2,
    );
    const first = pages.next();
    expect(requested, "two requests in flight before the first is awaited").toEqual([20, 45]);
    // Later pages may answer first; the consumer still gets them in order.
    resolvers.get(45)?.("page 45");
    resolvers.get(20)?.("page 20");
    expect(await first.value).toBe("page 20");
    const second = pages.next();
    expect(requested, "consuming a page asks for the next one").toEqual([20, 45, 70]);
    expect(await second.value).toBe("page 45");
    const third = pages.next();
    resolvers.get(70)?.("page 70");
    expect(await third.value).toBe("page 70");
    expect(pages.next().done).toBe(true);
    expect(requested).toEqual([20, 45, 70]);
  });

  it("plans nothing when the total is unknown or already covered", () => {
    expect([...laterPages(0, 2000, () => Promise.resolve(1))]).toEqual([]);
    expect([...laterPages(2000, 2000, () => Promise.resolve(1))]).toEqual([]);
  });
});
