// The Temporal SDK's own metrics (workflow task execution latency, activity
// latency, slots, sticky cache) served for Prometheus: what an operator
// watches to see that workflow tasks stay short, and what bench:engine reads
// to report the longest workflow task execution as the SDK measured it.
import { Runtime } from "@temporalio/worker";

/** Finer than the SDK's default buckets (1, 10, 20, 50, 100, 200, 500, 1000 ms) where the targets are. */
export const WORKFLOW_TASK_BUCKETS_MS = [1, 2, 5, 10, 20, 50, 100, 150, 200, 300, 500, 1000, 2000, 5000, 10000];

export function serveSdkMetrics(bindAddress: string): void {
  Runtime.install({
    telemetryOptions: {
      metrics: {
        prometheus: {
          bindAddress,
          histogramBucketOverrides: { workflow_task_execution_latency: WORKFLOW_TASK_BUCKETS_MS },
        },
      },
    },
  });
}
