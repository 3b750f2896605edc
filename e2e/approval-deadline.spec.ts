// Issue 39 §2: an approval nobody decides before its rule's deadline is
// rejected by the rule's default action (onExpiry "reject"): the gated call
// never runs, the run goes on to its answer, and the inbox's audit lists the
// approval as expired, decided by nobody. (The email that says so is covered by
// lib/approval-channels/approval-email.int.test.ts.)
import { expect, test } from "./fixtures";
import { storageStateFor } from "./support";

test.use({ storageState: storageStateFor("approver") });

test("an approval past its deadline is rejected by default: the transfer never runs, the run answers, the audit says expired", async ({ page, playwright, baseURL }) => {
  const builder = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder"), extraHTTPHeaders: { Origin: baseURL ?? "" } });
  const stamp = Date.now().toString(36);
  const graph = `deadline-${stamp}`;
  // An agent named for this test alone: the audit is filtered by it.
  const agent = `deadline-agent-${stamp}`;
  expect((await builder.post("/api/agents", { data: { name: graph } })).status()).toBe(201);
  const saved = await builder.post(`/api/agents/${graph}/versions`, {
    data: {
      baseVersion: 1,
      message: "a transfer that needs an approver within 3 seconds",
      graph: {
        entryAgent: agent,
        agents: [{ name: agent, model: "demo/assistant", tools: ["ledger_transfer"], approvalRules: [{ pattern: "ledger_transfer", requiredRole: "approver", expiresInSeconds: 3 }] }],
        limits: { followUpWindowSeconds: 0 },
      },
    },
  });
  expect(saved.status(), await saved.text()).toBe(201);
  const started = await builder.post("/api/runs", { data: { graph, task: 'tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":7}\nanswer: nobody answered in time' } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  const run = async () => ((await (await builder.get(`/api/runs/${encodeURIComponent(runId)}`)).json()) as { run: { status: string; output?: string | null } }).run;

  // It waits for an approver first, then the deadline passes and the run goes on without the transfer.
  await expect.poll(async () => (await run()).status, { message: "the run completes once its approval expires", timeout: 45_000 }).toBe("completed");
  expect((await run()).output).toBe("nobody answered in time");
  const { events } = (await (await builder.get(`/api/runs/${encodeURIComponent(runId)}/events?since=0`)).json()) as { events: { type: string; tool?: string; outcome?: string }[] };
  const call = events.find((e) => e.type === "tool_call_completed" && e.tool === "ledger_transfer");
  expect(call?.outcome, "the transfer was refused, not run").toBe("rejected");

  await page.goto(`/inbox/audit?agent=${encodeURIComponent(agent)}`);
  const row = page.getByTestId("audit-row");
  await expect(row, "one approval of this agent in the audit").toHaveCount(1);
  await expect(row).toContainText("expired");
  await expect(row).toContainText("ledger_transfer");
  await expect(row.getByRole("cell").nth(5), "decided by nobody").toHaveText("—");
  await builder.dispose();
});
