// `npm start` and `npm test` generate the Prisma client (lib/db/generated, not
// committed) before they use it; on a fresh clone, any static import of it by
// the entry scripts fails before that step runs (ERR_MODULE_NOT_FOUND).
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../lib/run";
import { importChainTo, staticImportClosure } from "./static-imports";

const generated = (relative: string): boolean => relative.startsWith("lib/db/generated/") || relative.startsWith("prisma/.generated/");

describe("entry scripts on a fresh clone", () => {
  it.each(["scripts/bootstrap.mjs", "scripts/start.ts", "scripts/test.ts"])("%s loads no generated code statically", (entry) => {
    const chain = importChainTo(PROJECT_ROOT, entry, generated);
    expect(chain, `static import chain to generated code: ${chain?.join(" → ")}; import it dynamically after generating, or in a child process`).toBeNull();
  });

  it("the walk sees through the project's imports (so the checks above are not vacuous)", () => {
    expect(staticImportClosure(PROJECT_ROOT, "scripts/start.ts")).toContain("lib/config/env");
    expect(importChainTo(PROJECT_ROOT, "worker/main.ts", generated)).toEqual(["worker/main.ts", "lib/db/prisma.ts", "lib/db/generated/sqlite/client"]);
  });
});
