// A real OpenAI-compatible model for tests, offline: the llama-server and
// GGUF model that scripts/lib/local-model.ts provisions into the cache outside
// the checkout (~/.cache/zap-studio/, or $ZAP_CACHE_DIR), served behind a proxy
// that caps each reply and records each response's status (docs/real-models.md).
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startLocalModelServer } from "../lib/local-model";
import { freePort } from "./ports";

export { findLlamaServer, provisionLlamaServer, provisionLocalModel, provisionModel, LOCAL_MODEL } from "../lib/local-model";

export interface LlamaServer {
  /** The OpenAI-compatible base URL (…/v1): OPENAI_COMPATIBLE_BASE_URL; replies are capped at `maxTokens` (default 256). */
  baseUrl: string;
  /** The HTTP status of every response llama-server gave, in order (its own log names only failures, and not always). */
  statuses(): number[];
  /** How many requests the client hung up on before llama-server finished answering. */
  abandoned(): number;
  /** The server's output so far. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * A chat request with its reply capped at `maxTokens`. llama-server's own `-n`
 * is only a default that a request's max_tokens overrides, and a small model
 * rambles to the agents' 1,024 tokens: a minute per call on two busy cores.
 */
function capped(body: string, maxTokens: number): string {
  try {
    const request = JSON.parse(body) as Record<string, unknown>;
    const asked = typeof request.max_tokens === "number" ? request.max_tokens : Infinity;
    return JSON.stringify({ ...request, max_tokens: Math.min(asked, maxTokens) });
  } catch {
    // Not JSON: llama-server answers it with its own 400.
    return body;
  }
}

/** A proxy in front of llama-server that caps each reply's length and records each response's status. */
async function recordingProxy(target: number, maxTokens: number): Promise<{ port: number; statuses: number[]; abandoned(): number; close(): Promise<void> }> {
  const statuses: number[] = [];
  let abandoned = 0;
  const proxy: Server = createServer((req, res) => {
    let gaveUp = false;
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    // The body's length changes with the cap: the proxy sets it once the body is read.
    const { "content-length": _length, "transfer-encoding": _encoding, ...headers } = req.headers;
    const upstream = request({ host: "127.0.0.1", port: target, path: req.url, method: req.method, headers }, (answer) => {
      statuses.push(answer.statusCode ?? 0);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (error) => {
      // The client's own hang-up is not llama-server's failure.
      if (gaveUp) return;
      statuses.push(502);
      res.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `llama-server unreachable: ${error.message}` } }));
    });
    // A client that gives up (a cancelled run, a timed-out activity) abandons the generation too.
    res.on("close", () => {
      if (res.writableEnded) return;
      gaveUp = true;
      abandoned++;
      upstream.destroy();
    });
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      const sent = req.url?.endsWith("/chat/completions") ? capped(body, maxTokens) : body;
      upstream.setHeader("content-length", Buffer.byteLength(sent));
      upstream.end(sent);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    statuses,
    abandoned: () => abandoned,
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}

/**
 * Starts llama-server (scripts/lib/local-model.ts: --jinja, a seed, a 4,096-token
 * context, two threads) on a free port behind a proxy that records the statuses
 * it answers with; resolves once the model is loaded.
 */
export async function startLlamaServer(options: { binary: string; model: string; maxTokens?: number; readyTimeoutMs?: number }): Promise<LlamaServer> {
  const llama = await startLocalModelServer({ server: options.binary, model: options.model, port: await freePort(), threads: 2, readyTimeoutMs: options.readyTimeoutMs });
  const proxy = await recordingProxy(llama.port, options.maxTokens ?? 256);
  return {
    baseUrl: `http://127.0.0.1:${proxy.port}/v1`,
    statuses: () => [...proxy.statuses],
    abandoned: () => proxy.abandoned(),
    log: () => llama.log(),
    async stop() {
      await llama.stop();
      await proxy.close();
    },
  };
}
