// The TypeScript client and `npm run agent --server` against the real server
// (issue 23 §1): keys are created with signed-in sessions, then a program does
// everything with nothing but its key — starts a treasury run, streams it to
// its approval, an approver's key decides it, the stream ends with the answer,
// the audit names the key — and the agent command runs against the server
// until its key is revoked.
import { execFile } from "node:child_process";
import path from "node:path";
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { Role } from "../lib/access/roles";
import type { CreatedApiKey } from "../lib/api-keys/schemas";
import type { RunEvent } from "../lib/contract/types";
import { ApiError, ZapClient } from "../lib/client/zap-client";
import { storageStateFor } from "./support";

const ROOT = path.resolve(import.meta.dirname, "..");
/** support-triage's prompts use these placeholders; a run without them is refused (422). */
const TRIAGE = ["support-triage", "answer: hi", "--context", JSON.stringify({ company: "Acme", customer: { name: "Ada" } })];
const TRANSFER = 'tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":10}\nanswer: transferred';

/** A key created as the web does it: POST /api/api-keys with the role's signed-in session. */
async function createKey(session: APIRequestContext, role: Role): Promise<CreatedApiKey> {
  const response = await session.post("/api/api-keys", { data: { name: `client-e2e-${role}-${Date.now()}`, role, expiresInDays: 1 } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as CreatedApiKey;
}

/** The error a promise fails with, which must be an ApiError. */
async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "an ApiError").toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** `npm run agent -- --server <url> …` as an operator runs it, with the key in the environment only. */
function runAgent(server: string, apiKey: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ZAP_API_KEY: apiKey };
  delete env.ZAP_URL;
  return new Promise((resolve) => {
    execFile(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/run-agent.ts", "--server", server, ...args], { cwd: ROOT, env, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

test("a program starts a run, streams it, an approver's key decides, the audit names the key; a builder's key cannot decide", async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  const session = (role: Role) => playwright.request.newContext({ baseURL, storageState: storageStateFor(role) });
  const [builderSession, approverSession] = await Promise.all([session("builder"), session("approver")]);
  const builderKey = await createKey(builderSession, "builder");
  const approverKey = await createKey(approverSession, "approver");
  const builder = new ZapClient({ baseUrl: baseURL ?? "", apiKey: builderKey.token });
  const approver = new ZapClient({ baseUrl: baseURL ?? "", apiKey: approverKey.token });

  expect(await builder.me(), "the key acts as its owner, with its role").toMatchObject({ email: "builder@zap.local", role: "builder" });

  const { runId } = await builder.startRun({ graph: "treasury", task: TRANSFER });
  expect(runId).toMatch(/^treasurer-/);

  const seen: RunEvent[] = [];
  let approvalId = "";
  for await (const event of builder.streamRun(runId, { signal: AbortSignal.timeout(60_000) })) {
    seen.push(event);
    if (event.type !== "approval_requested") continue;
    approvalId = event.approval.id;
    expect((await builder.listApprovals()).approvals.map((a) => a.id), "the inbox lists it").toContain(approvalId);

    const refused = await apiErrorOf(builder.decideApproval(runId, approvalId, { approved: true, reason: "mine" }));
    expect([refused.status, refused.code], `a builder's key cannot decide: ${refused.message}`).toEqual([403, "forbidden"]);

    const noReason = await apiErrorOf(approver.decideApproval(runId, approvalId, { approved: false }));
    expect([noReason.status, noReason.issues[0]?.path], "a rejection needs a reason, said per field").toEqual([422, "reason"]);

    const approval = await approver.decideApproval(runId, approvalId, { approved: true, reason: "within the monthly limit" });
    expect(approval).toMatchObject({ status: "approved", decision: { reason: "within the monthly limit", decidedBy: { email: "approver@zap.local", role: "approver" } } });
  }
  expect(approvalId, `the stream showed the approval request (events: ${seen.map((e) => e.type).join(", ")})`).not.toBe("");
  expect(seen.map((e) => e.seq), "every event once, in order").toEqual(seen.map((_, i) => i + 1));
  expect(seen.find((e) => e.type === "approval_decided")).toMatchObject({ status: "approved", decidedBy: "approver@zap.local" });
  expect(seen.at(-1), "the stream ends with the run's answer").toMatchObject({ type: "run_completed", output: "transferred" });
  expect(await builder.waitForRun(runId)).toMatchObject({ status: "completed", output: "transferred" });

  const decisions = await approver.auditEvents({ action: "approval.approved", pageSize: 200 });
  const decision = decisions.rows.find((row) => row.target === `${runId}/${approvalId}`);
  expect(decision, "the audit lists the decision").toBeDefined();
  expect(decision).toMatchObject({ actor: "approver@zap.local", details: { apiKeyId: approverKey.key.id, reason: "within the monthly limit" } });
  const starts = await approver.auditEvents({ action: "run.started", pageSize: 200 });
  expect(starts.rows.find((row) => row.target === runId), "the start names the builder's key").toMatchObject({ actor: "builder@zap.local", details: { apiKeyId: builderKey.key.id } });

  await Promise.all([builder.revokeApiKey(builderKey.key.id), approver.revokeApiKey(approverKey.key.id)]);
  const revoked = await apiErrorOf(approver.me());
  expect([revoked.status, revoked.code]).toEqual([401, "unauthenticated"]);
  expect(revoked.message).toMatch(/^API key refused: this key was revoked at /);
  await Promise.all([builderSession.dispose(), approverSession.dispose()]);
});

test("npm run agent --server runs an agent with ZAP_API_KEY, and stops with the server's reason once the key is revoked", async ({ playwright, baseURL }) => {
  test.setTimeout(180_000);
  const builderSession = await playwright.request.newContext({ baseURL, storageState: storageStateFor("builder") });
  const key = await createKey(builderSession, "builder");
  const server = baseURL ?? "";

  const ran = await runAgent(server, key.token, TRIAGE);
  expect(ran.code, `exit code (stderr: ${ran.stderr})`).toBe(0);
  expect(ran.stdout).toMatch(new RegExp(`^run \\S+ {2}\\(${server.replace(/[.]/g, "\\.")}/runs/`, "m"));
  expect(ran.stdout, ran.stdout).toContain("run started: ");
  expect(ran.stdout.trim().split("\n").at(-1), ran.stdout).toBe("completed: hi");
  expect(ran.stdout + ran.stderr, "the key is never printed").not.toContain(key.token);

  const revoked = await new ZapClient({ baseUrl: server, apiKey: key.token }).revokeApiKey(key.key.id);
  expect(revoked.status).toBe("revoked");
  const refused = await runAgent(server, key.token, TRIAGE);
  expect(refused.code, `exit code (stdout: ${refused.stdout})`).toBe(1);
  expect(refused.stderr.trim()).toMatch(/^✗ API key refused: this key was revoked at \d{4}-\d\d-\d\dT/);
  expect(refused.stdout, "nothing started").toBe("");

  const noKey = await runAgent(server, "", TRIAGE);
  expect([noKey.code, noKey.stderr.trim()]).toEqual([2, `✗ no API key for ${server}: set ZAP_API_KEY or pass --api-key-file <path> (create a key on the account page or with npm run api-key -- create)`]);
  await builderSession.dispose();
});
