// The real-model tests are collected by vitest.config.ts exactly where
// findLlamaServer finds a llama-server, in the serial group and never in the
// parallel one: the config inlines the rule (it loads none of our modules), so
// this keeps the two from drifting apart.
import { describe, expect, it } from "vitest";
import config from "../../vitest.config";
import { findLlamaServer } from "./llama-server";

const LLAMA_TEST = "worker/engine-tests/llama-demo-graphs.int.test.ts";

/** The include and exclude lists of the vitest project named `name`. */
function project(name: string): { include: string[]; exclude: string[] } {
  for (const entry of config.test?.projects ?? []) {
    if (typeof entry !== "object" || !("test" in entry) || entry.test?.name !== name) continue;
    return { include: entry.test.include ?? [], exclude: entry.test.exclude ?? [] };
  }
  throw new Error(`vitest.config.ts has no project ${name}`);
}

describe("where the real-model tests are collected", () => {
  it("in the serial integration group exactly when findLlamaServer finds a binary", () => {
    expect(project("integration-serial").include.includes(LLAMA_TEST), `findLlamaServer() = ${findLlamaServer()}`).toBe(findLlamaServer() !== null);
  });

  it("never beside other files in the parallel group", () => {
    expect(project("integration").exclude).toContain(LLAMA_TEST);
  });

  it("takes ZAP_LLAMA_SERVER as given, so that a wrong path fails the tests instead of hiding them", () => {
    expect(findLlamaServer({ ZAP_LLAMA_SERVER: "/nowhere/llama-server" })).toBe("/nowhere/llama-server");
  });
});
