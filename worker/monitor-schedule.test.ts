import { describe, expect, it } from "vitest";
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleDescription, type ScheduleUpdateOptions } from "@temporalio/client";
import { ensureMonitorSchedule, monitorScheduleId } from "./monitor-schedule";

/** A client whose schedule service records what the worker asked for; `exists` makes create refuse as Temporal does. */
function fakeClient(exists: boolean) {
  const calls: { created: unknown[]; updated: ScheduleUpdateOptions[]; handles: string[] } = { created: [], updated: [], handles: [] };
  const previous = { spec: { intervals: [{ every: 60_000 }] }, action: { type: "startWorkflow" }, policies: { overlap: ScheduleOverlapPolicy.ALLOW_ALL, catchupWindow: 60_000, pauseOnFailure: false }, state: { paused: false } } as unknown as ScheduleDescription;
  const client = {
    schedule: {
      async create(options: { scheduleId: string }) {
        if (exists) throw new ScheduleAlreadyRunning("exists", options.scheduleId);
        calls.created.push(options);
      },
      getHandle(id: string) {
        calls.handles.push(id);
        return { update: async (fn: (p: ScheduleDescription) => ScheduleUpdateOptions) => void calls.updated.push(fn(previous)) };
      },
    },
  } as unknown as Client;
  return { client, calls };
}

describe("ensureMonitorSchedule: one schedule per task queue, upserted by every worker at boot", () => {
  it("creates the schedule with the interval, the tick workflow on the task queue and overlap skip", async () => {
    const { client, calls } = fakeClient(false);
    expect(await ensureMonitorSchedule(client, { taskQueue: "zap-agents", intervalSeconds: 60 })).toBe("created");
    expect(calls.created).toEqual([
      expect.objectContaining({
        scheduleId: "zap-monitors-zap-agents",
        spec: { intervals: [{ every: "60s" }] },
        action: expect.objectContaining({ type: "startWorkflow", workflowType: "monitorsTickWorkflow", taskQueue: "zap-agents" }),
        policies: expect.objectContaining({ overlap: ScheduleOverlapPolicy.SKIP }),
      }),
    ]);
  });

  it("a schedule that exists is brought to this worker's interval (a second worker, or a changed ZAP_MONITOR_INTERVAL_SECONDS)", async () => {
    const { client, calls } = fakeClient(true);
    expect(await ensureMonitorSchedule(client, { taskQueue: "zap-e2e", intervalSeconds: 2 })).toBe("updated");
    expect(calls.handles).toEqual([monitorScheduleId("zap-e2e")]);
    expect(calls.updated[0]).toMatchObject({ spec: { intervals: [{ every: "2s" }] }, action: { taskQueue: "zap-e2e", workflowRunTimeout: "60s" }, policies: { overlap: ScheduleOverlapPolicy.SKIP, pauseOnFailure: false } });
  });
});
