// The built-in demo model: deterministic and offline. It follows the script in
// the latest user message (see demo-script.ts), or plans from plain English
// with the agent's own tools (demo-planner.ts), so demos and tests drive the
// real engine: tool calls (several at once), sub-agent conversations,
// approvals (through the tools it calls), failures and token usage.
import type { ChatMessage } from "../../lib/contract/types";
import { parseDemoScript, type DemoAction } from "./demo-script";
import { planFromText, summarise } from "./demo-planner";
import { ModelCallError, type InferenceRequest, type InferenceResponse, type ModelProvider, type ModelToolCall } from "./types";

/** Rough token count: about four characters per token, as for English text. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function messageText(message: ChatMessage): string {
  if (message.role === "assistant") return `${message.content ?? ""}${JSON.stringify(message.tool_calls ?? [])}`;
  return message.content;
}

/** The conversation id of the latest message_agent result for `agent`, read from tool results. */
function latestConversationWith(messages: ChatMessage[], agent: string): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "tool" || m.name !== "message_agent") continue;
    try {
      const reply = JSON.parse(m.content) as { conversation_id?: string; agent_name?: string };
      if (reply.agent_name === agent && reply.conversation_id) return reply.conversation_id;
    } catch {
      // not a reply payload (e.g. an error text)
    }
  }
  return null;
}

function toToolCall(action: DemoAction, id: string, messages: ChatMessage[]): ModelToolCall {
  switch (action.kind) {
    case "tool":
      return { id, name: action.name, arguments: action.rawArguments };
    case "message":
      return { id, name: "message_agent", arguments: JSON.stringify({ agent_name: action.agent, message: action.text }) };
    case "reply": {
      const conversationId = latestConversationWith(messages, action.agent) ?? `unknown-conversation-with-${action.agent}`;
      return { id, name: "message_agent", arguments: JSON.stringify({ conversation_id: conversationId, message: action.text }) };
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ms <= 0) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new Error("aborted"));
    });
  });
}

export interface DemoModelOptions {
  /** Latency added to every inference (benchmarks simulate a provider with it). */
  latencyMs?: number;
}

export function createDemoModel(options: DemoModelOptions = {}): ModelProvider {
  return {
    async generate(request: InferenceRequest, modelName: string): Promise<InferenceResponse> {
      const { messages } = request;
      let lastUser = -1;
      for (let i = messages.length - 1; i >= 0; i--) {
        if (messages[i]?.role === "user") {
          lastUser = i;
          break;
        }
      }
      const task = lastUser >= 0 ? (messages[lastUser]?.content as string) : "";
      const since = messages.slice(lastUser + 1);
      const results = since.filter((m): m is Extract<ChatMessage, { role: "tool" }> => m.role === "tool");
      const parsed = parseDemoScript(task);
      // Plain English (no directives): plan from the agent's own tools; scripts keep driving tests.
      const planned = parsed.hasDirectives ? null : planFromText(task, request.tools, results);
      const script = planned ?? parsed;
      await sleep((options.latencyMs ?? 0) + script.thinkMs, request.signal);
      if (script.failModel) throw new ModelCallError(`demo/${modelName} was asked to fail ("fail model")`, false);
      if (request.attempt <= script.flakyAttempts) {
        throw new ModelCallError(`demo/${modelName} simulated a transient failure (attempt ${request.attempt} of flaky ${script.flakyAttempts})`, true);
      }

      const stepsDone = since.filter((m) => m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0).length;
      const inputTokens = messages.reduce((sum, m) => sum + estimateTokens(messageText(m)), 0);

      if (stepsDone < script.steps.length) {
        const step = script.steps[stepsDone] ?? [];
        const toolCalls = step.map((action, j) => toToolCall(action, `call_${lastUser}_${stepsDone}_${j}`, messages));
        const outputTokens = script.outputTokens ?? estimateTokens(JSON.stringify(toolCalls));
        return { content: null, toolCalls, usage: { inputTokens, outputTokens }, finishReason: "tool-calls" };
      }

      let content: string;
      if (script.answer !== null) {
        content = script.answer;
      } else if (planned) {
        content = summarise(results);
      } else if (script.hasDirectives) {
        const lines = results.map((m) => `${m.name}: ${m.content}`);
        content = lines.length ? `Done. Results:\n${lines.join("\n")}` : "Done.";
      } else {
        content = `${request.agentName} received: ${task}`;
      }
      return { content, toolCalls: [], usage: { inputTokens, outputTokens: script.outputTokens ?? estimateTokens(content) }, finishReason: "stop" };
    },
  };
}
