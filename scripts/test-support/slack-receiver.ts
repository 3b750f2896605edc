// A stand-in for Slack's Web API on loopback (Slack has no offline
// implementation): it records each call (method, bearer token, JSON body) and
// answers as Slack does, { ok: true, channel, ts } for chat.postMessage.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface SlackCall {
  method: string;
  authorization: string;
  body: Record<string, unknown>;
}

export interface SlackReceiver {
  /** The base URL to configure as ZAP_SLACK_API_URL. */
  apiUrl: string;
  /** `127.0.0.1:<port>`: a private address, so ZAP_EGRESS_ALLOW_HOSTS must list it (lib/approval-channels/slack-api.ts). */
  host: string;
  calls: SlackCall[];
  close(): Promise<void>;
}

export const SLACK_TEST_CHANNEL = "C0APPROVALS";

/** On `port` (default: any free one); e2e passes the one its stack's ZAP_EGRESS_ALLOW_HOSTS names (playwright.config.ts). */
export async function startSlackReceiver(port = 0): Promise<SlackReceiver> {
  const calls: SlackCall[] = [];
  let posted = 0;
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => {
      const method = (request.url ?? "").replace(/^\/api\//, "");
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: false, error: "invalid_json" }));
        return;
      }
      calls.push({ method, authorization: String(request.headers.authorization ?? ""), body });
      const answer = method === "chat.postMessage" ? { ok: true, channel: SLACK_TEST_CHANNEL, ts: `1700000000.${String(++posted).padStart(6, "0")}` } : { ok: true };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `http://${host}/api`,
    host,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A block_actions request as Slack sends it: form-encoded `payload`, signed with v0 at `timestamp`. */
export function slackClick(input: { slackUserId: string; action: "zap_approve" | "zap_reject"; value: string; channel?: string }): string {
  const payload = { type: "block_actions", user: { id: input.slackUserId }, channel: { id: input.channel ?? SLACK_TEST_CHANNEL }, actions: [{ action_id: input.action, value: input.value }] };
  return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
}
