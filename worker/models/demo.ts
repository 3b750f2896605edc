// The built-in demo model: deterministic and offline. It follows the script in
// its task (see demo-script.ts), or plans from plain English with the agent's
// own tools (demo-planner.ts), so demos and tests drive the real engine: tool
// calls (several at once), sub-agent conversations, approvals (through the
// tools it calls), failures, token usage, and the orchestration modes: typed
// answers (demo-output.ts) and their repairs, routing and handoffs.
import { planNodeWork } from "./demo-node-work";
import {
  FAIL_TOOL,
  GUARDRAIL_REWRITE_PREFIX,
  HANDOFF_PROMPT_PREFIX,
  HANDOFF_TOOL,
  REPAIR_PROMPT_PREFIX,
  RETURN_TOOL,
  REROUTE_PROMPT_PREFIX,
  taskOfHandoffPrompt,
} from "../../lib/contract/system-tools";
import type { ChatMessage } from "../../lib/contract/types";
import { parseDemoScript, type DemoAction, type DemoScript } from "./demo-script";
import { handoffByDescription, isRoutingTool, planByCards, planCardsOf, planFromText, routeByDescription, summarise } from "./demo-planner";
import { invalidArgumentsFor, valueForSchema } from "./demo-output";
import { DEMO_IMAGE_TOKENS, DEMO_VISION_MODEL_NAME, describeImages } from "./demo-vision";
import { DEMO_STREAM_MAX_MS, DEMO_STREAM_PACE_MS, DEMO_STREAM_SCRIPTED_MAX_MS, streamDemoText } from "./demo-stream";
import { ModelCallError, type FunctionTool, type InferenceRequest, type InferenceResponse, type ModelProvider, type ModelToolCall } from "./types";

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

type ToolResult = Extract<ChatMessage, { role: "tool" }>;

/** The engine's own tools: their calls end a turn rather than take a step, and their results are not data. */
const SYSTEM_TOOLS = new Set<string>([RETURN_TOOL, FAIL_TOOL, HANDOFF_TOOL]);

/** Where the agent stands in its task, read from the messages. */
interface Conversation {
  /** Index of the message holding the task. */
  taskIndex: number;
  /** The task: the latest user message that is not a repair or reroute prompt (inside a handoff prompt, the task it carries). */
  task: string;
  /** The agent that handed the task over, when it came by handoff. */
  handedOverBy: string | null;
  /** Results of the agent's own tools since the task. */
  results: ToolResult[];
  /** Tool steps taken since the task (system tool calls excluded). */
  stepsDone: number;
  /** Repair prompts since the task: answers that failed the schema so far. */
  repairs: number;
  /** Rewrite prompts since the task: answers an output guardrail refused so far. */
  rewrites: number;
  /** The agents a reroute prompt leaves to choose from, when the chosen one failed. */
  remaining: string[] | null;
}

const isEnginePrompt = (text: string): boolean => text.startsWith(REPAIR_PROMPT_PREFIX) || text.startsWith(REROUTE_PROMPT_PREFIX) || text.startsWith(GUARDRAIL_REWRITE_PREFIX);

function readConversation(messages: ChatMessage[]): Conversation {
  let taskIndex = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "user" && !isEnginePrompt(m.content)) {
      taskIndex = i;
      break;
    }
  }
  const message = taskIndex >= 0 ? (messages[taskIndex]?.content as string) : "";
  const handedOver = message.startsWith(HANDOFF_PROMPT_PREFIX);
  const since = messages.slice(taskIndex + 1);
  let remaining: string[] | null = null;
  for (const m of since) {
    if (m.role !== "user" || !m.content.startsWith(REROUTE_PROMPT_PREFIX)) continue;
    const offered = /one of:\s*(.*?)\.?\s*$/s.exec(m.content)?.[1];
    remaining = offered ? offered.split(",").map((name) => name.trim()).filter(Boolean) : [];
  }
  return {
    taskIndex,
    task: handedOver ? (taskOfHandoffPrompt(message) ?? message) : message,
    handedOverBy: handedOver ? (new RegExp(`^${HANDOFF_PROMPT_PREFIX} ([A-Za-z0-9_-]+)`).exec(message)?.[1] ?? null) : null,
    results: since.filter((m): m is ToolResult => m.role === "tool" && !SYSTEM_TOOLS.has(m.name)),
    stepsDone: since.filter((m) => m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0 && !m.tool_calls?.some((c) => SYSTEM_TOOLS.has(c.function.name))).length,
    repairs: since.filter((m) => m.role === "user" && m.content.startsWith(REPAIR_PROMPT_PREFIX)).length,
    rewrites: since.filter((m) => m.role === "user" && m.content.startsWith(GUARDRAIL_REWRITE_PREFIX)).length,
    remaining,
  };
}

/** The answer in words: the script's, a summary of the tool results, a plan node's work, or an echo of the task. */
function answerInWords(script: DemoScript, planned: boolean, convo: Conversation, agentName: string): string {
  if (convo.rewrites > 0 && script.rewrittenAnswer !== null) return script.rewrittenAnswer;
  if (script.answer !== null) return script.answer;
  if (planned) return summarise(convo.results);
  if (script.hasDirectives) {
    const lines = convo.results.map((m) => `${m.name}: ${m.content}`);
    return lines.length ? `Done. Results:\n${lines.join("\n")}` : "Done.";
  }
  return planNodeWork(agentName, convo.task) ?? `${agentName} received: ${convo.task}`;
}

/** How the turn ends: a system tool call (return, fail, handoff) or text. */
function finalAnswer(script: DemoScript, planned: boolean, convo: Conversation, request: InferenceRequest): { call: string; arguments: string } | string {
  const returnTool = request.tools.find((t) => t.name === RETURN_TOOL);
  const routing = returnTool && isRoutingTool(returnTool) ? returnTool : null;
  if (script.failReason !== null) return { call: FAIL_TOOL, arguments: JSON.stringify({ reason: script.failReason }) };
  if (script.handoff) return { call: HANDOFF_TOOL, arguments: JSON.stringify(script.handoff) };
  if (returnTool && convo.repairs < script.invalidAnswers) return { call: RETURN_TOOL, arguments: invalidArgumentsFor(returnTool.parameters) };
  if (script.returnArguments !== null) return { call: RETURN_TOOL, arguments: script.returnArguments };
  if (routing) return { call: RETURN_TOOL, arguments: JSON.stringify(routingDecision(script, convo, routing)) };
  const cards = returnTool ? planCardsOf(returnTool) : [];
  if (cards.length > 0) return { call: RETURN_TOOL, arguments: JSON.stringify(planByCards(script.prose || convo.task, cards)) };
  const words = answerInWords(script, planned, convo, request.agentName);
  if (!returnTool) return words;
  const sources = [...new Set(convo.results.map((r) => r.name))];
  return { call: RETURN_TOOL, arguments: JSON.stringify(valueForSchema(returnTool.parameters, { summary: words, sources })) };
}

/** A router's decision: the first route line whose target is still on offer, else by the children's descriptions. */
function routingDecision(script: DemoScript, convo: Conversation, routing: FunctionTool): Record<string, unknown> {
  const route = script.routes.find((r) => convo.remaining === null || convo.remaining.includes(r.target));
  if (!route) return { ...routeByDescription(script.prose, routing, convo.remaining) };
  // A fallback no longer on offer (it failed this turn) is left out, as a model reading the offer would.
  const fallback = route.fallback && (convo.remaining === null || convo.remaining.includes(route.fallback)) ? route.fallback : null;
  return { target: route.target, confidence: route.confidence, reason: "demo route", ...(fallback ? { fallback } : {}) };
}

export interface DemoModelOptions {
  /** Latency added to every inference (benchmarks simulate a provider with it). */
  latencyMs?: number;
}

/** Agents and tasks whose `fail model once` has failed in this process (so their next attempt answers). */
const failedOnce = new Set<string>();

export function createDemoModel(options: DemoModelOptions = {}): ModelProvider {
  return {
    async generate(request: InferenceRequest, modelName: string): Promise<InferenceResponse> {
      const { messages, tools } = request;
      const convo = readConversation(messages);
      const parsed = parseDemoScript(convo.task, request.agentName);
      const routes = tools.some((t) => t.name === RETURN_TOOL && isRoutingTool(t)) && parsed.routes.length > 0;
      const scripted = parsed.hasDirectives || routes;
      // Plain English: hand off when another agent fits better than the agent's own tools, else plan with them.
      const handoff = scripted || convo.stepsDone > 0 ? null : handoffByDescription(parsed.prose, tools, convo.handedOverBy);
      const planned = scripted || handoff ? null : planFromText(parsed.prose, tools, convo.results);
      const script = planned ?? parsed;
      const streamAnswer = async (text: string) => {
        if (!request.onText) return;
        const scriptedPace = parsed.streamPaceMs;
        await streamDemoText(text, request.onText, {
          paceMs: scriptedPace ?? DEMO_STREAM_PACE_MS,
          maxTotalMs: scriptedPace === null ? DEMO_STREAM_MAX_MS : DEMO_STREAM_SCRIPTED_MAX_MS,
          signal: request.signal,
        });
      };
      await sleep((options.latencyMs ?? 0) + script.thinkMs, request.signal);
      if (script.failModel) throw new ModelCallError(`demo/${modelName} was asked to fail ("fail model")`, false);
      if (request.attempt <= script.flakyAttempts) {
        throw new ModelCallError(`demo/${modelName} simulated a transient failure (attempt ${request.attempt} of flaky ${script.flakyAttempts})`, true);
      }

      const inputTokens = messages.reduce((sum, m) => sum + estimateTokens(messageText(m)) + (m.role === "user" ? (m.imageData?.length ?? 0) * DEMO_IMAGE_TOKENS : 0), 0);
      // demo/vision answers a message with images by describing them; without images it is the demo assistant.
      const task = messages[convo.taskIndex];
      if (modelName === DEMO_VISION_MODEL_NAME && task?.role === "user" && task.imageData?.length) {
        const description = await describeImages(task.imageData);
        await streamAnswer(description);
        return { content: description, toolCalls: [], usage: { inputTokens, outputTokens: script.outputTokens ?? estimateTokens(description) }, finishReason: "stop" };
      }
      const callsResponse = (toolCalls: ModelToolCall[]): InferenceResponse => ({
        content: null,
        toolCalls,
        usage: { inputTokens, outputTokens: script.outputTokens ?? estimateTokens(JSON.stringify(toolCalls)) },
        finishReason: "tool-calls",
      });

      if (handoff) return callsResponse([{ id: `call_${convo.taskIndex}_handoff`, name: HANDOFF_TOOL, arguments: JSON.stringify(handoff) }]);
      if (convo.stepsDone < script.steps.length) {
        const step = script.steps[convo.stepsDone] ?? [];
        return callsResponse(step.map((action, j) => toToolCall(action, `call_${convo.taskIndex}_${convo.stepsDone}_${j}`, messages)));
      }
      if (script.failModelOnce && !failedOnce.has(`${request.agentName}\n${convo.task}`)) {
        failedOnce.add(`${request.agentName}\n${convo.task}`);
        throw new ModelCallError(`demo/${modelName} was asked to fail once ("fail model once")`, false);
      }
      const answer = finalAnswer(script, planned !== null, convo, request);
      if (typeof answer !== "string") return callsResponse([{ id: `call_${convo.taskIndex}_${answer.call}_${messages.length}`, name: answer.call, arguments: answer.arguments }]);
      await streamAnswer(answer);
      return { content: answer, toolCalls: [], usage: { inputTokens, outputTokens: script.outputTokens ?? estimateTokens(answer) }, finishReason: "stop" };
    },
  };
}
