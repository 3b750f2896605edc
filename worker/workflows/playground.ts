// The playground's workflow (issue 27 §1): one model call alone, or the
// description of an agent's tools, so the web server reaches providers and MCP
// servers only through a worker. No run, no ledger, no tool execution.
import { proxyActivities } from "@temporalio/workflow";
import type { PlaygroundActivities } from "../activities/playground";
import type { PlaygroundWorkflowInput, PlaygroundWorkflowOutput } from "../../lib/playground/contract";

const { describePlaygroundTools } = proxyActivities<PlaygroundActivities>({
  // Describing connects to MCP servers (up to 10 s each); the web server waits about 20 s.
  startToCloseTimeout: "15 seconds",
  retry: { maximumAttempts: 2, initialInterval: "1 second" },
});

export async function playgroundCallWorkflow(input: PlaygroundWorkflowInput): Promise<PlaygroundWorkflowOutput> {
  if (input.kind === "describe") return describePlaygroundTools(input);
  // The engine's model-call policy (worker/workflows/inference.ts): five attempts, 1 s → 30 s, heartbeats,
  // and the whole call bounded by the run timeout it would have had.
  const { playgroundInference } = proxyActivities<PlaygroundActivities>({
    scheduleToCloseTimeout: Math.max(1, input.timeoutMs),
    startToCloseTimeout: "5 minutes",
    heartbeatTimeout: "10 seconds",
    retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumInterval: "30 seconds", maximumAttempts: 5 },
  });
  return playgroundInference(input);
}
