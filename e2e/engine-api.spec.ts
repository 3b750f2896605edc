// The engine's HTTP API end to end: a real run on the live worker, with roles
// enforced at every step and the approval recorded with who and why.
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { Role } from "../lib/access/roles";
import { storageStateFor } from "./support";

test("a builder starts a run, an approver decides its approval, roles are enforced", async ({ playwright, baseURL }) => {
  const as = (role: Role): Promise<APIRequestContext> => playwright.request.newContext({ baseURL, storageState: storageStateFor(role) });
  const [viewer, builder, approver] = await Promise.all([as("viewer"), as("builder"), as("approver")]);
  const task = 'tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":10}\nanswer: transferred';

  expect((await viewer.post("/api/runs", { data: { graph: "treasury", task } })).status()).toBe(403);
  const empty = await builder.post("/api/runs", { data: { graph: "treasury", task: "  " } });
  expect(empty.status()).toBe(422);
  expect((await empty.json()).error.issues).toEqual([{ path: "task", message: "describe the task" }]);
  expect((await builder.post("/api/runs", { data: { graph: "nobody", task } })).status()).toBe(404);

  const started = await builder.post("/api/runs", { data: { graph: "treasury", task } });
  expect(started.status()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  expect(runId).toMatch(/^treasurer-/);

  await expect.poll(async () => (await (await viewer.get(`/api/runs/${runId}`)).json()).run.status, { timeout: 20_000 }).toBe("awaiting_approval");
  let approvalId = "";
  await expect
    .poll(
      async () => {
        const { approvals } = (await (await viewer.get("/api/approvals")).json()) as { approvals: { id: string; runId: string; toolName: string }[] };
        approvalId = approvals.find((a) => a.runId === runId)?.id ?? "";
        return approvalId;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");

  const decide = (ctx: APIRequestContext, data: object) => ctx.post(`/api/runs/${runId}/approvals/${approvalId}`, { data });
  expect((await decide(builder, { approved: true })).status()).toBe(403);
  const noReason = await decide(approver, { approved: false });
  expect(noReason.status()).toBe(422);
  expect((await noReason.json()).error.issues[0].path).toBe("reason");

  const approved = await decide(approver, { approved: true, reason: "within the monthly limit" });
  expect(approved.status()).toBe(200);
  expect((await approved.json()).approval).toMatchObject({ status: "approved", decision: { reason: "within the monthly limit", decidedBy: { email: "approver@zap.local", role: "approver" } } });
  expect((await decide(approver, { approved: true })).status()).toBe(409);

  await expect.poll(async () => (await (await viewer.get(`/api/runs/${runId}`)).json()).run.output, { timeout: 20_000 }).toBe("transferred");
  const { events } = (await (await viewer.get(`/api/runs/${runId}/events?since=0`)).json()) as { events: { type: string; decidedBy?: string }[] };
  expect(events.find((e) => e.type === "approval_decided")?.decidedBy).toBe("approver@zap.local");
  expect(events.find((e) => e.type === "tool_call_completed")).toMatchObject({ outcome: "ok" });

  // A follow-up continues the completed run; then the builder cancels it.
  expect((await builder.post(`/api/runs/${runId}/messages`, { data: { content: "answer: and one more thing" } })).status()).toBe(202);
  await expect.poll(async () => (await (await viewer.get(`/api/runs/${runId}`)).json()).run.output, { timeout: 20_000 }).toBe("and one more thing");
  expect((await viewer.post(`/api/runs/${runId}/cancel`)).status()).toBe(403);
  expect((await builder.post(`/api/runs/${runId}/cancel`)).status()).toBe(202);
  await expect.poll(async () => (await (await viewer.get(`/api/runs/${runId}`)).json()).run.status, { timeout: 20_000 }).toBe("cancelled");
  await Promise.all([viewer.dispose(), builder.dispose(), approver.dispose()]);
});

test("the runs API refuses bad requests precisely", async ({ playwright, baseURL }) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  expect((await anonymous.get("/api/runs")).status()).toBe(401);
  const viewer = await playwright.request.newContext({ baseURL, storageState: storageStateFor("viewer") });
  expect((await viewer.get("/api/runs/main-does-not-exist")).status()).toBe(404);
  const badId = await viewer.get(`/api/runs/${encodeURIComponent("a b")}`);
  expect(badId.status()).toBe(422);
  expect((await badId.json()).error.issues[0].path).toBe("runId");
  expect((await viewer.get("/api/runs/x/events?since=-1")).status()).toBe(422);
  await Promise.all([anonymous.dispose(), viewer.dispose()]);
});
