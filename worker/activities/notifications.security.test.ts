// Issue 14 §5 (webhook): approval notifications are never sent unsigned, a
// receiver can tell a forged, altered or replayed delivery from ours, and the
// webhook cannot be turned into a way into the private network (no
// redirects, the egress guard in front). The activity runs in Temporal's mock
// activity environment against local receivers that count connections.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { MockActivityEnvironment } from "@temporalio/testing";
import { DefaultLogger } from "@temporalio/worker";
import { ApplicationFailure } from "@temporalio/activity";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv } from "../../lib/config/env";
import type { ApprovalNotification } from "../../lib/contract/workflow";
import type { ApprovalRequest } from "../../lib/contract/types";
import { createNotificationActivities, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhookSignature, type WebhookConfig } from "./notifications";

const SECRET = "a-webhook-secret-of-some-length";

interface Receiver {
  server: Server;
  url: string;
  host: string;
  connections: number;
  deliveries: { headers: IncomingMessage["headers"]; body: string }[];
}

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

async function receiver(answer: (r: Receiver) => [number, Record<string, string>] = () => [204, {}]): Promise<Receiver> {
  const r: Receiver = { server: createServer(), url: "", host: "", connections: 0, deliveries: [] };
  r.server.on("connection", () => r.connections++);
  r.server.on("request", (request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      r.deliveries.push({ headers: request.headers, body });
      const [status, headers] = answer(r);
      response.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  servers.push(r.server);
  r.host = `127.0.0.1:${(r.server.address() as AddressInfo).port}`;
  r.url = `http://${r.host}/hook`;
  return r;
}

const approval = {
  id: "ap-1",
  runId: "run-1",
  parentRunId: null,
  rootRunId: "run-1",
  agentName: "main",
  toolName: "ledger_transfer",
  toolCallId: "call-1",
  arguments: { amount: 5 },
  requestedAt: "2026-11-24T10:00:00.000Z",
  expiresAt: "2026-11-24T11:00:00.000Z",
  requiredRole: null,
  requiredApprovals: 1,
  endorsements: [],
  requestedBy: "operator@zap.local",
  allowSelfApproval: false,
  onExpiry: "reject",
  status: "pending",
  decision: null,
} satisfies ApprovalRequest;
const notification: ApprovalNotification = { event: "approval.requested", approval, at: "2026-11-24T10:00:00.000Z" };

async function notify(webhook: WebhookConfig | null, sent: ApprovalNotification = notification): Promise<unknown> {
  const { notifyApproval } = createNotificationActivities({ webhook });
  return new MockActivityEnvironment({ activityId: "1" }, { logger: new DefaultLogger("ERROR") }).run(notifyApproval, sent).then(
    () => null,
    (e: unknown) => e,
  );
}

describe("the approval webhook", () => {
  it("signs timestamp and body; a receiver rejects a changed body, a wrong secret and a replay outside the window", async () => {
    const r = await receiver();
    expect(await notify({ url: r.url, secret: SECRET, allowHosts: [r.host] })).toBeNull();
    const [delivery] = r.deliveries;
    if (!delivery) throw new Error("expected a delivery");
    const timestamp = String(delivery.headers[TIMESTAMP_HEADER]);
    const signature = String(delivery.headers[SIGNATURE_HEADER]);
    expect(signature).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(30);
    expect(verifyWebhookSignature(delivery.body, timestamp, signature, SECRET)).toBe(true);

    // An attacker who captured the delivery changes the amount, or replays it later.
    expect(verifyWebhookSignature(delivery.body.replace('"amount":5', '"amount":5000'), timestamp, signature, SECRET)).toBe(false);
    expect(verifyWebhookSignature(delivery.body, String(Number(timestamp) + 1), signature, SECRET), "the timestamp is signed").toBe(false);
    expect(verifyWebhookSignature(delivery.body, timestamp, signature, "someone-else's-secret")).toBe(false);
    expect(verifyWebhookSignature(delivery.body, timestamp, signature, SECRET, { now: (Number(timestamp) + 301) * 1000 }), "replay after 5 minutes").toBe(false);
    expect(verifyWebhookSignature(delivery.body, timestamp, signature, SECRET, { now: (Number(timestamp) + 299) * 1000 })).toBe(true);
    expect(verifyWebhookSignature(delivery.body, timestamp, signature, SECRET, { toleranceSeconds: 60, now: (Number(timestamp) + 61) * 1000 })).toBe(false);
  });

  it("is never sent unsigned: the configuration refuses a URL without a secret, and so does the activity", async () => {
    expect(() => parseEnv({ DATABASE_URL: "file:./x.db", ZAP_WEBHOOK_URL: "https://hooks.example.com/zap" })).toThrow(/ZAP_WEBHOOK_SECRET/);
    const r = await receiver();
    const error = await notify({ url: r.url, secret: null, allowHosts: [r.host] });
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).nonRetryable).toBe(true);
    expect(r.connections, "nothing was posted").toBe(0);
  });

  it("does not follow a redirect into the private network; the target is never contacted", async () => {
    const inner = await receiver();
    const redirector = await receiver(() => [307, { location: `${inner.url}?stolen=1` }]);
    // Even with the inner host allow-listed, a redirect is refused rather than followed.
    const error = await notify({ url: redirector.url, secret: SECRET, allowHosts: [redirector.host, inner.host] });
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).message).toMatch(/redirect/);
    expect((error as ApplicationFailure).nonRetryable).toBe(true);
    expect(inner.connections).toBe(0);
  });

  it("a rejection's reason reaches Slack as text: & < > escaped, so <!channel> pings nobody and no link hides behind words", async () => {
    const r = await receiver();
    const reason = "<!channel> see <http://evil.example|the audit> & act";
    const rejected: ApprovalNotification = {
      event: "approval.rejected",
      approval: { ...approval, status: "rejected", decision: { approved: false, decidedBy: { id: "u-1", email: "approver@zap.local", role: "approver" }, decidedAt: "2026-11-24T10:05:00.000Z", reason } },
      at: "2026-11-24T10:05:00.000Z",
    };
    expect(await notify({ url: r.url, secret: SECRET, allowHosts: [r.host] }, rejected)).toBeNull();
    const body = JSON.parse(r.deliveries[0]!.body) as { text: string; approval: { decision: { reason: string } } };
    expect(body.text).toContain("(&lt;!channel&gt; see &lt;http://evil.example|the audit&gt; &amp; act)");
    expect(body.text).not.toMatch(/[<>]/);
    expect(body.approval.decision.reason, "the structured field keeps the reason as typed").toBe(reason);
  });

  it("goes through the egress guard: a private receiver must be in ZAP_EGRESS_ALLOW_HOSTS", async () => {
    const r = await receiver();
    const error = await notify({ url: r.url, secret: SECRET, allowHosts: [] });
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).message).toMatch(/private or local network/);
    expect(r.connections).toBe(0);
    const config = parseEnv({ DATABASE_URL: "file:./x.db", ZAP_WEBHOOK_URL: r.url, ZAP_WEBHOOK_SECRET: SECRET, ZAP_EGRESS_ALLOW_HOSTS: r.host });
    expect(await notify(config.webhook)).toBeNull();
    expect(r.deliveries).toHaveLength(1);
  });
});
