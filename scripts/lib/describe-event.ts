// One line per run event, as `npm run agent` prints them (local and remote
// mode alike). Browser-safe: the event type only.
import type { RunEvent } from "../../lib/contract/types";
import { routingOutcome } from "../../lib/runs/orchestration-view";
import { plural } from "../../lib/text/plural";

/** The event as one line (indented for what happens inside a turn). */
export function describeEvent(e: RunEvent): string {
  switch (e.type) {
    case "run_started":
      return `run started: ${e.agentName}`;
    case "iteration_started":
      return `iteration ${e.iteration}`;
    case "inference_completed":
      return `  model ${e.model}: ${plural(e.toolCalls, "tool call")}, ${e.usage.inputTokens}+${e.usage.outputTokens} tokens, ${e.latencyMs} ms`;
    case "tool_call_started":
      return `  → ${e.tool} ${e.arguments}`;
    case "tool_call_completed":
      return `  ← ${e.tool} ${e.outcome} (${e.durationMs} ms): ${e.result.slice(0, 160)}`;
    case "approval_requested":
      return `  ⏸ approval needed for ${e.approval.toolName} (id ${e.approval.id}, role ${e.approval.requiredRole ?? "any approver"})`;
    case "approval_decided":
      return `  ▶ approval ${e.status}${e.decidedBy ? ` by ${e.decidedBy}` : ""}${e.reason ? `: ${e.reason}` : ""}`;
    case "sub_agent_message":
      return `  ⇢ ${e.agentName} (turn ${e.turn}): ${e.message}`;
    case "sub_agent_reply":
      return `  ⇠ ${e.agentName}: ${e.response.slice(0, 160)}`;
    case "routing_decided": {
      const d = e.decision;
      return `  ⤳ ${d.router} routes to ${d.chosen} (target ${d.target}; ${routingOutcome(d)}): ${d.reason}`;
    }
    case "routed_agent_failed":
      return `  ✗ ${e.agentName} failed (attempt ${e.attempt}): ${e.reason}`;
    case "handoff":
      return `  ⇒ handoff ${e.from} → ${e.to}: ${e.reason}`;
    case "output_invalid":
      return `  ✗ answer failed its schema (${e.errors.join("; ")})${e.repairing ? ", asking for a repair" : ""}`;
    case "budget_extension_requested":
      return `  ⏸ token budget reached (${e.used} of ${e.limit}): asking an approver for ${e.requested} more`;
    case "plan_proposed":
      return `  ▦ plan of ${plural(e.plan.nodes.length, "node")}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ""}: ${e.plan.nodes.map((n) => (n.dependsOn.length ? `${n.id} ← ${n.dependsOn.join(", ")}` : n.id)).join("; ")}`;
    case "plan_node_started":
      return `  ▶ node ${e.nodeId} (${e.agentName})${e.attempt > 1 ? ` attempt ${e.attempt}` : ""}`;
    case "plan_node_finished":
      return `  ${e.status === "completed" ? "✓" : "✗"} node ${e.nodeId} ${e.status}${e.reason ? `: ${e.reason}` : ""}`;
    case "plan_finished":
      return `  ▦ plan ${e.outcome}: ${e.completed} completed, ${e.failed} failed, ${e.skipped} skipped${e.cancelled ? `, ${e.cancelled} cancelled` : ""}${e.reason ? ` (${e.reason})` : ""}`;
    case "run_completed":
      return `completed: ${e.output}`;
    case "run_failed":
      return `failed (${e.reason}): ${e.message}${e.details?.errors ? `\n  errors: ${e.details.errors.join("; ")}` : ""}`;
    default:
      return `  ${e.type}`;
  }
}
