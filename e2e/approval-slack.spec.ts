// Issue 39 §2, decided from Slack: an admin sets up the Slack app (signing
// secret, bot token, channel, and the Web API's address: a local receiver
// stands in for Slack, which has no offline implementation) and links a Slack
// member to the approver. The worker posts the approval to the channel; a click
// signed as Slack signs it decides it as that approver; the Slack message is
// updated to say who decided, and the inbox's audit shows the same decision.
import { expect, test } from "./fixtures";
import { slackClick, startSlackReceiver, type SlackCall } from "../scripts/test-support/slack-receiver";
import { slackSignature } from "../lib/approval-channels/slack-signature";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("approver") });

/** The port the stack's worker may reach (playwright.config.ts allows only it among private addresses). */
const SLACK_PORT = Number(process.env.E2E_SLACK_PORT ?? 18533);
const SIGNING_SECRET = "e2e-slack-signing-secret-0123456789";
const SLACK_MEMBER = "UE2EAPPROVER";
const CLEARED = { slackSigningSecret: null, slackBotToken: null, slackChannel: null, slackApiUrl: null };

test("an approval posted to Slack is decided by a signed click as the linked approver; the message and the inbox show who decided", async ({ page, playwright, baseURL }) => {
  const slack = await startSlackReceiver(SLACK_PORT);
  const origin = { extraHTTPHeaders: { Origin: baseURL ?? "" } };
  const admin = await playwright.request.newContext({ baseURL, storageState: storageStateFor("admin"), ...origin });
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), ...origin });
  // Slack's servers sign their requests; they hold no session.
  const slackServers = await playwright.request.newContext({ baseURL });
  try {
    const configured = await admin.patch("/api/approval-channels", {
      data: { slackSigningSecret: SIGNING_SECRET, slackBotToken: "xoxb-e2e-token", slackChannel: "C0APPROVALS", slackApiUrl: `http://127.0.0.1:${SLACK_PORT}/api` },
    });
    expect(configured.status(), await configured.text()).toBe(200);
    const linked = await admin.post("/api/slack/links", { data: { slackUserId: SLACK_MEMBER, email: "approver@zap.local" } });
    expect(linked.status(), await linked.text()).toBeLessThan(300);

    // Each model call thinks 6 s, so the approval is asked after the worker's few seconds of cached settings have passed.
    const started = await builder.post("/api/runs", { data: { graph: "treasury", task: 'think 6000\ntool ledger_transfer {"from_account":"savings","to_account":"operating","amount":8}\nanswer: moved' } });
    expect(started.status(), await started.text()).toBe(201);
    const { runId } = (await started.json()) as { runId: string };
    const posted = () => slack.calls.find((c) => c.method === "chat.postMessage" && JSON.stringify(c.body).includes(runId));
    await expect.poll(() => Boolean(posted()), { message: "the approval is posted to the Slack channel", timeout: 45_000 }).toBe(true);
    const post = posted() as SlackCall;
    expect(post.authorization).toBe("Bearer xoxb-e2e-token");
    const actions = (post.body.blocks as { type: string; elements?: { action_id: string; value?: string }[] }[]).find((b) => b.type === "actions");
    const value = actions?.elements?.find((e) => e.action_id === "zap_approve")?.value ?? "";
    const { approvalId } = JSON.parse(value) as { approvalId: string };

    const click = slackClick({ slackUserId: SLACK_MEMBER, action: "zap_approve", value });
    const unsigned = await slackServers.post("/api/slack/interactions", { data: click, headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(unsigned.status(), "an unsigned click decides nothing").toBe(401);
    const timestamp = Math.floor(Date.now() / 1000);
    const signed = await slackServers.post("/api/slack/interactions", {
      data: click,
      headers: { "content-type": "application/x-www-form-urlencoded", "x-slack-request-timestamp": String(timestamp), "x-slack-signature": slackSignature(SIGNING_SECRET, timestamp, click) },
    });
    expect(signed.status(), await signed.text()).toBe(200);

    const run = async () => ((await (await builder.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string } }).run.status;
    await expect.poll(run, { message: "the approved transfer runs and the run answers", timeout: 45_000 }).toBe("completed");
    // The receiver answers the n-th post with ts 1700000000.00000n, as Slack answers with the message's ts; the update names it.
    const ts = `1700000000.${String(slack.calls.filter((c) => c.method === "chat.postMessage").indexOf(post) + 1).padStart(6, "0")}`;
    const updated = () => slack.calls.find((c) => c.method === "chat.update" && c.body.ts === ts && /Approved by approver@zap\.local/.test(String(c.body.text)));
    await expect.poll(() => Boolean(updated()), { message: "the Slack message says who decided", timeout: 30_000 }).toBe(true);
    expect(JSON.stringify(updated()?.body.blocks), "no buttons once decided").not.toContain("zap_approve");

    await page.goto(`/inbox/audit?person=${encodeURIComponent("approver@zap.local")}`);
    const row = page.locator(`[data-testid="audit-row"][data-approval-id="${approvalId}"]`);
    await expect(row).toContainText("approved");
    await expect(row).toContainText("approver@zap.local");
  } finally {
    // The stack is shared with the lane's other specs: no approval of theirs goes to Slack.
    await admin.patch("/api/approval-channels", { data: CLEARED });
    await admin.delete(`/api/slack/links/${SLACK_MEMBER}`);
    await Promise.all([admin.dispose(), builder.dispose(), slackServers.dispose(), slack.close()]);
  }
});
