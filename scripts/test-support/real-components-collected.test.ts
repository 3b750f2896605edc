// The guard of issue 38 §1: every test file on a real component (a real model,
// a real Arize Phoenix) is collected by the integration run of every machine,
// CI's clean clone included. They used to be left out by this configuration
// where the component was not installed, which no summary could show; now each
// provisions its component and a machine that cannot have it fails naming it.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import config from "../../vitest.config";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Vitest's own glob matcher (picomatch, untyped): loaded through require to give it a type. */
const picomatch = createRequire(import.meta.url)("picomatch") as (globs: string[]) => (file: string) => boolean;

const REAL_COMPONENT_FILES = [
  "worker/engine-tests/llama-demo-graphs.int.test.ts",
  "worker/engine-tests/llama-token-stream.int.test.ts",
  "worker/engine-tests/phoenix-export.int.test.ts",
];

/** Which of REAL_COMPONENT_FILES the project named `name` collects (its include globs minus its excludes). */
function collected(name: string): string[] {
  for (const entry of config.test?.projects ?? []) {
    if (typeof entry !== "object" || !("test" in entry) || entry.test?.name !== name) continue;
    const included = picomatch(entry.test.include ?? []);
    const excluded = picomatch(entry.test.exclude ?? []);
    return REAL_COMPONENT_FILES.filter((file) => included(file) && !excluded(file));
  }
  throw new Error(`vitest.config.ts has no project ${name}`);
}

describe("tests on real components", () => {
  const integrationRun = [...collected("integration-serial"), ...collected("integration"), ...collected("integration-isolated")];

  it.each(REAL_COMPONENT_FILES)("%s is collected by npm test's integration run, exactly once", (file) => {
    expect(existsSync(path.join(ROOT, file)), "the file exists").toBe(true);
    expect(integrationRun.filter((f) => f === file)).toEqual([file]);
  });

  it("collects them whatever this machine has installed: no environment variable or file decides", async () => {
    // The configuration is plain data: loading it again with the component variables pointing nowhere collects the same.
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { ZAP_LLAMA_SERVER: "", ZAP_PHOENIX: "", ZAP_CACHE_DIR: "/nowhere/zap-cache", HOME: "/nowhere" });
      vi.resetModules();
      const again = await import("../../vitest.config");
      const names = (again.default.test?.projects ?? []).flatMap((p) => (typeof p === "object" && "test" in p ? [JSON.stringify(p.test?.include)] : []));
      expect(names).toEqual((config.test?.projects ?? []).flatMap((p) => (typeof p === "object" && "test" in p ? [JSON.stringify(p.test?.include)] : [])));
    } finally {
      process.env = saved;
    }
  });
});
