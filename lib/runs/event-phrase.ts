// One human sentence per ledger event, as a live stream's reader (a person
// watching, a program logging) would say it: "Calling lookup_order with
// order_id 4417…", "lookup_order answered in 120 ms". Orchestration events
// reuse the run page's own phrasing (orchestration-view.ts), so both agree.
import type { RunEvent } from "../contract/types";
import { handoffLine, markerTitle, routingOutcome } from "./orchestration-view";

const MAX_ARGUMENT_TEXT = 80;

/** A tool call's arguments as a short phrase: `order_id 4417, reason "late"`, cut at 80 characters. */
export function argumentPhrase(raw: string): string {
  let text: string;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      text = Object.entries(parsed)
        .map(([key, value]) => `${key} ${typeof value === "string" ? (/^[\w.-]+$/.test(value) ? value : JSON.stringify(value)) : JSON.stringify(value)}`)
        .join(", ");
    } else text = raw;
  } catch {
    text = raw;
  }
  return text.length > MAX_ARGUMENT_TEXT ? `${text.slice(0, MAX_ARGUMENT_TEXT - 1)}…` : text;
}

const ms = (value: number) => `${Math.round(value).toLocaleString("en-US")} ms`;

/** The event as one sentence. */
export function eventPhrase(event: RunEvent): string {
  switch (event.type) {
    case "run_started":
      return `${event.agentName} started`;
    case "user_message":
      return "A follow-up message arrived";
    case "turn_interrupted":
      return markerTitle(event).replace(/^./, (c) => c.toUpperCase());
    case "iteration_started":
      return `Step ${event.iteration}`;
    case "inference_started":
      return `Asking ${event.model}…`;
    case "inference_completed":
      return `${event.model} answered in ${ms(event.latencyMs)} (${event.usage.inputTokens + event.usage.outputTokens} tokens${event.toolCalls ? `, ${event.toolCalls} tool call${event.toolCalls === 1 ? "" : "s"}` : ""})`;
    case "tool_call_started": {
      const args = argumentPhrase(event.arguments);
      return `Calling ${event.tool}${args && args !== "{}" ? ` with ${args}` : ""}…`;
    }
    case "tool_call_completed":
      return event.outcome === "ok" ? `${event.tool} answered in ${ms(event.durationMs)}` : event.outcome === "rejected" ? `${event.tool} was not run: the call was rejected` : `${event.tool} failed after ${ms(event.durationMs)}`;
    case "approval_requested":
      return `Waiting for approval of ${event.approval.toolName}`;
    case "approval_decided":
      return `${event.tool} ${event.status}${event.decidedBy ? ` by ${event.decidedBy}` : ""}${event.reason ? `: ${event.reason}` : ""}`;
    case "approval_endorsed":
      return `${event.by} approved ${event.tool} (${event.approvals} of ${event.required})`;
    case "sub_agent_message":
      return `Asking ${event.agentName}: ${event.message.length > MAX_ARGUMENT_TEXT ? `${event.message.slice(0, MAX_ARGUMENT_TEXT - 1)}…` : event.message}`;
    case "sub_agent_reply":
      return `${event.agentName} replied${event.isComplete ? " (done)" : ""}`;
    case "budget_warning":
      return `Token budget nearly used: ${event.used} of ${event.limit}`;
    case "error":
      return `Error: ${event.message}`;
    case "routing_decided":
      return `Routed: ${routingOutcome(event.decision)}`;
    case "routed_agent_failed":
      return `${event.agentName} failed (attempt ${event.attempt}): ${event.reason}`;
    case "handoff":
      return `Handoff ${handoffLine(event)}`;
    case "continued_as_new":
    case "output_invalid":
      return markerTitle(event).replace(/^./, (c) => c.toUpperCase());
    case "budget_extension_requested":
      return `Asking for ${event.requested} more tokens (used ${event.used} of ${event.limit})`;
    case "budget_extended":
      return `Budget extended by ${event.granted} tokens${event.by ? ` by ${event.by}` : ""}`;
    case "plan_proposed":
      return `Plan proposed (attempt ${event.attempt})`;
    case "plan_node_started":
      return `Plan step ${event.nodeId} started (${event.agentName})`;
    case "plan_node_finished":
      return `Plan step ${event.nodeId} ${event.status}${event.reason ? `: ${event.reason}` : ""}`;
    case "plan_finished":
      return `Plan ${event.outcome.replace("_", " ")}: ${event.completed} completed, ${event.failed} failed, ${event.skipped} skipped`;
    case "guardrail_checked":
      return `Guardrail ${event.guardrail} (${event.guardrailKind}${event.tool ? `, ${event.tool}` : ""}) ${event.tripped ? `tripped (${event.action})` : "passed"}: ${event.reason}`;
    case "run_completed":
      return "Run completed";
    case "run_failed":
      return `Run failed (${event.reason}): ${event.message}`;
    case "run_cancelled":
      return `Run cancelled: ${event.message}`;
  }
}
