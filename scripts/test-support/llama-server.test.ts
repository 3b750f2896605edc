// The real-model tests are collected everywhere (issue 38 §1): they provision
// llama-server and the model themselves into the cache outside the checkout
// (scripts/lib/local-model.ts: seconds, no compile), so a machine without them
// fails naming what could not be installed instead of leaving the tests out.
// They run in the serial group, never beside other files: they load the CPU.
import { describe, expect, it } from "vitest";
import config from "../../vitest.config";
import { findLlamaServer } from "./llama-server";

const REAL_MODEL_TESTS = ["worker/engine-tests/llama-demo-graphs.int.test.ts", "worker/engine-tests/llama-token-stream.int.test.ts"];

/** The include and exclude lists of the vitest project named `name`. */
function project(name: string): { include: string[]; exclude: string[] } {
  for (const entry of config.test?.projects ?? []) {
    if (typeof entry !== "object" || !("test" in entry) || entry.test?.name !== name) continue;
    return { include: entry.test.include ?? [], exclude: entry.test.exclude ?? [] };
  }
  throw new Error(`vitest.config.ts has no project ${name}`);
}

describe("where the real-model tests are collected", () => {
  it.each(REAL_MODEL_TESTS)("%s: in the serial integration group, whether or not a llama-server is installed yet", (file) => {
    expect(project("integration-serial").include).toContain(file);
  });

  it.each(REAL_MODEL_TESTS)("%s: never beside other files in the parallel group", (file) => {
    expect(project("integration").exclude).toContain(file);
  });

  it("takes ZAP_LLAMA_SERVER as given, so that a wrong path fails the tests instead of hiding them", () => {
    expect(findLlamaServer({ ZAP_LLAMA_SERVER: "/nowhere/llama-server" })).toBe("/nowhere/llama-server");
  });

  it("looks for the cached install under ZAP_CACHE_DIR, and finds none in an empty one", () => {
    expect(findLlamaServer({ ZAP_CACHE_DIR: "/nowhere/zap-cache" })).toBeNull();
  });
});
