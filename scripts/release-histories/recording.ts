// What scripts/record-release-histories.ts hands each scenario, and the waits
// and checks the scenarios share. A module of its own so the tape-era
// scenarios (tape-era-scenarios.ts, loaded only under the react-server
// condition) use the same ones without importing the recorder, whose module
// body runs the recording.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@temporalio/client";
import { z } from "zod";
import type { Db } from "../../lib/db/prisma";
import type { Engine } from "../../lib/engine/client";
import type { ApprovalRequest, RunEvent, RunStatus, RunSummary } from "../../lib/contract/types";

export interface RecordingUser {
  id: string;
  email: string;
  name: string;
  role: "viewer" | "builder" | "approver" | "admin";
}

/** A local receiver standing in for the operator's webhook (monitor alerts, approval notifications). */
export interface WebhookReceiver {
  url: string;
  /** host:port, for ZAP_EGRESS_ALLOW_HOSTS. */
  host: string;
  /** What an alert post is answered with (approval notifications always get 204). */
  alertStatus: number;
  /** Alert events received, in order, with the status they were answered with. */
  alerts: { event: string; status: number }[];
  close(): Promise<void>;
}

export interface Recording {
  engine: Engine;
  client: Client;
  db: Db;
  taskQueue: string;
  approver: { id: string; email: string; role: string };
  builder: RecordingUser;
  webhook: WebhookReceiver;
  /** The engine client on another task queue (a scenario with a worker of its own). */
  engineOn(taskQueue: string): Engine;
  /** An in-process worker of the release on another task queue; resolves to its stop. */
  workerOn(taskQueue: string): Promise<() => Promise<void>>;
  /** Environment for a worker process of the release (worker/main.ts) against this recording's server and database. */
  workerProcess: { temporalAddress: string; databaseUrl: string; env: Record<string, string> };
}

/**
 * The release's own code could not replay one of its runs (a query, which
 * replays a closed run, or the check before writing failed on a nondeterminism
 * error): a known defect of d1ec196 under queries (release-replay.int.test.ts,
 * "unreplayable"). The scenario is recorded again rather than kept.
 */
export class ReleaseCannotReplay extends Error {}

/** Polls `read` until `accept` holds. */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      last = await read();
      if (accept(last)) return last;
    } catch (error) {
      // Asking again will not help: the release cannot replay this run.
      if (String(error).includes("Nondeterminism error")) throw new ReleaseCannotReplay(`${what}: ${String(error)}`);
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last)?.slice(0, 1000)}${lastError ? `; last error: ${String(lastError)}` : ""}`);
}

export const waitFor = (r: Pick<Recording, "engine">, runId: string, statuses: RunStatus[]): Promise<RunSummary> =>
  eventually(() => r.engine.getRun(runId), (s) => statuses.includes(s.status), `run ${runId} to reach ${statuses.join("|")}`);

export const pendingApproval = (r: Pick<Recording, "engine">, runId: string, notId?: string): Promise<ApprovalRequest> =>
  eventually(() => r.engine.getPendingApprovals(runId), (list) => list.length === 1 && list[0]?.id !== notId, `an approval of ${runId}`).then((list) => list[0] as ApprovalRequest);

export const ofType = <T extends RunEvent["type"]>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

/** Fails the recording when a run did not take the path its scenario is named for. */
export function expectThat(condition: boolean, what: string): void {
  if (!condition) throw new Error(`the recorded run did not take its path: ${what}`);
}

/** A webhook body is read only for its event name (alert.fired / alert.resolved, approval.*). */
const webhookBody = z.object({ event: z.string() });

/** The recording's webhook: alert posts are answered with `alertStatus` (a scenario makes them fail), everything else 204. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const server: Server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => {
      let event = "";
      try {
        event = webhookBody.parse(JSON.parse(text)).event;
      } catch {
        // Not an event this receiver tells apart: answered like an approval notification.
      }
      const alert = event.startsWith("alert.");
      const status = alert ? receiver.alertStatus : 204;
      if (alert) receiver.alerts.push({ event, status });
      response.writeHead(status).end();
    });
  });
  const receiver: WebhookReceiver = {
    url: "",
    host: "",
    alertStatus: 204,
    alerts: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.url = `http://${receiver.host}/hook`;
  return receiver;
}
