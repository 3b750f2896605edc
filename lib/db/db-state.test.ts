// Next loads a module more than once in one process (server components and
// route handlers are bundled apart) around one shared Prisma client: what
// createDb records about a client must be visible to every copy.
import { describe, expect, it, vi } from "vitest";
import type { Db } from "./db-type";

describe("a client's provider", () => {
  it("is known to another copy of the module than the one that registered it", async () => {
    const client = {} as Db;
    const first = await import("./transactions");
    vi.resetModules();
    const second = await import("./transactions");
    expect(second).not.toBe(first);
    first.registerDbProvider(client, "sqlite");
    expect(second.dbProvider(client)).toBe("sqlite");
    expect(() => second.dbProvider({} as Db)).toThrow(/not created by createDb/);
  });
});
