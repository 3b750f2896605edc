// Issue 39 §2: Slack's Web API URL is the operator's (ZAP_SLACK_API_URL), so
// every Slack call passes the egress guard. A URL on a private address is
// refused before any connection is opened unless its host is listed in
// ZAP_EGRESS_ALLOW_HOSTS (host and port); cloud metadata is refused even then.
// The allowed path (a listed loopback receiver) is approval-slack.int.test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../config/env";
import { slackApi } from "./slack-api";

let server: Server;
let host = "";
let connections = 0;

beforeAll(async () => {
  // Answers as Slack would, so a call that got through would succeed: only the guard can make it fail.
  server = createServer((_request, response) => response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true,"ts":"1.1"}'));
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const call = (apiUrl: string, allowHosts: string[]) => slackApi({ botToken: "xoxb-test-token", apiUrl, allowHosts }, "chat.postMessage", { channel: "C0APPROVALS", text: "hi" });

describe("Slack Web API calls pass the egress guard", () => {
  it("refuses a Slack API URL on a private address before connecting, and never names the token", async () => {
    const before = connections;
    const refusal = await call(`http://${host}/api`, []).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(refusal).toMatch(/^Slack chat\.postMessage refused by the egress guard: /);
    expect(refusal).not.toContain("xoxb-test-token");
    expect(connections, "no connection was opened").toBe(before);
  });

  it("refuses a name that resolves to a private address, and a listed host on another port", async () => {
    const before = connections;
    const port = Number(host.split(":")[1]);
    await expect(call(`http://localhost:${port}/api`, [])).rejects.toThrow(/egress guard/);
    await expect(call(`http://${host}/api`, [`127.0.0.1:${port === 1 ? 2 : 1}`])).rejects.toThrow(/egress guard/);
    expect(connections).toBe(before);
  });

  it("refuses cloud metadata even when the operator lists it", async () => {
    await expect(call("http://169.254.169.254/api", ["169.254.169.254"])).rejects.toThrow(/egress guard/);
  });

  it("reaches the private host once the operator lists it", async () => {
    const before = connections;
    await expect(call(`http://${host}/api`, [host])).resolves.toMatchObject({ ok: true, ts: "1.1" });
    expect(connections).toBe(before + 1);
  });

  it("takes the allow-list from ZAP_EGRESS_ALLOW_HOSTS, empty by default", () => {
    const base = { DATABASE_URL: "file:./x.db", AUTH_SECRET: "a".repeat(32), ZAP_SLACK_SIGNING_SECRET: "s".repeat(16), ZAP_SLACK_BOT_TOKEN: "xoxb-test-token", ZAP_SLACK_CHANNEL: "C0APPROVALS" };
    expect(parseEnv(base).approvalChannels.slack).toMatchObject({ apiUrl: "https://slack.com/api", allowHosts: [] });
    expect(parseEnv({ ...base, ZAP_SLACK_API_URL: "http://slack-proxy.internal:8080/api", ZAP_EGRESS_ALLOW_HOSTS: "Slack-Proxy.internal:8080" }).approvalChannels.slack?.allowHosts).toEqual(["slack-proxy.internal:8080"]);
  });
});
