// A local HTTP server speaking the OpenAI chat-completions protocol, answering
// from a script, so tests drive the real AI SDK provider over real HTTP.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ScriptedReply {
  status?: number;
  content?: string | null;
  toolCalls?: { id: string; name: string; arguments: string }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** Answer only after this long, like a slow model (the client may give up first). */
  delayMs?: number;
  /**
   * What the model says instead when the request carries a json_schema
   * response format: a server that enforces it (llama.cpp's grammar) leaves
   * the model no way to call a tool, so the reply is this text alone.
   */
  constrained?: string;
}

export interface ChatCompletionsServer {
  baseUrl: string;
  /** Request bodies received, in order. */
  requests: Record<string, unknown>[];
  /** How many requests the client closed before the reply was sent. */
  abandoned: () => number;
  /** Queues the replies for the next requests. */
  script(replies: ScriptedReply[]): void;
  /**
   * Queues replies for the requests that name `model` (the `<model>` of
   * `openai-compatible/<name>/<model>`), and only for them: when each agent of
   * a graph runs on a model of its own, each answers from its own script,
   * whatever order their requests arrive in (parallel plan nodes, a router
   * and its children). A model with a script never takes from the shared queue.
   */
  scriptFor(model: string, replies: ScriptedReply[]): void;
  /** How many scripted replies no request has taken yet (shared and per-model). */
  pending(): number;
  /** How many requests found no scripted reply left (answered "(script exhausted)"). */
  unscripted(): number;
  /** Forgets the queued replies and the recorded requests, so that one test's leftovers never answer the next. */
  reset(): void;
  close(): Promise<void>;
}

export async function startChatCompletionsServer(): Promise<ChatCompletionsServer> {
  const queue: ScriptedReply[] = [];
  const byModel = new Map<string, ScriptedReply[]>();
  const requests: Record<string, unknown>[] = [];
  let abandoned = 0;
  let unscripted = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as Record<string, unknown>;
      requests.push(parsed);
      const own = typeof parsed.model === "string" ? byModel.get(parsed.model) : undefined;
      const scripted = own ? own.shift() : queue.shift();
      if (!scripted) unscripted++;
      const reply = scripted ?? { content: "(script exhausted)" };
      if (reply.delayMs) {
        const timer = setTimeout(() => respond(res, parsed, { ...reply, delayMs: 0 }), reply.delayMs);
        res.on("close", () => {
          if (res.writableEnded) return;
          clearTimeout(timer);
          abandoned++;
        });
        return;
      }
      respond(res, parsed, reply);
    });
  });
  function respond(res: ServerResponse, parsed: Record<string, unknown>, scripted: ScriptedReply): void {
    if (scripted.status && scripted.status >= 400) {
      res.writeHead(scripted.status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `scripted ${scripted.status}`, type: "server_error" } }));
      return;
    }
    const format = parsed.response_format as { type?: string } | undefined;
    const reply: ScriptedReply = scripted.constrained !== undefined && format?.type === "json_schema" ? { usage: scripted.usage, content: scripted.constrained } : scripted;
    const toolCalls = reply.toolCalls?.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
    if (parsed.stream === true) return respondStreamed(res, parsed, reply, toolCalls);
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: parsed.model,
        choices: [{ index: 0, message: { role: "assistant", content: reply.content ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason: toolCalls ? "tool_calls" : "stop" }],
        usage: { ...(reply.usage ?? { prompt_tokens: 11, completion_tokens: 7 }), total_tokens: (reply.usage?.prompt_tokens ?? 11) + (reply.usage?.completion_tokens ?? 7) },
      }),
    );
  }
  /**
   * A streamed reply (`stream: true`, what the AI SDK's streamText asks for), as
   * OpenAI and llama-server send it: chunks of a few words of content, each tool
   * call in one chunk, a last chunk with the finish reason and usage, then [DONE].
   */
  function respondStreamed(res: ServerResponse, parsed: Record<string, unknown>, reply: ScriptedReply, toolCalls: { id: string; type: string; function: { name: string; arguments: string } }[] | undefined): void {
    const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id: `chatcmpl-${requests.length}`, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: parsed.model, choices: [{ index: 0, ...choice }], ...extra })}\n\n`;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const words = (reply.content ?? "").match(/\s*\S+\s*/g) ?? [];
    for (let i = 0; i < words.length; i += 3) res.write(chunk({ delta: { ...(i === 0 ? { role: "assistant" } : {}), content: words.slice(i, i + 3).join("") }, finish_reason: null }));
    toolCalls?.forEach((call, index) => res.write(chunk({ delta: { ...(words.length === 0 && index === 0 ? { role: "assistant" } : {}), tool_calls: [{ index, ...call }] }, finish_reason: null })));
    const usage = reply.usage ?? { prompt_tokens: 11, completion_tokens: 7 };
    res.write(chunk({ delta: {}, finish_reason: toolCalls ? "tool_calls" : "stop" }, { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }));
    res.end("data: [DONE]\n\n");
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    abandoned: () => abandoned,
    script: (replies) => queue.push(...replies),
    scriptFor: (model, replies) => {
      const own = byModel.get(model) ?? [];
      own.push(...replies);
      byModel.set(model, own);
    },
    pending: () => [...byModel.values()].reduce((sum, own) => sum + own.length, queue.length),
    unscripted: () => unscripted,
    reset: () => {
      queue.length = 0;
      byModel.clear();
      requests.length = 0;
      unscripted = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
