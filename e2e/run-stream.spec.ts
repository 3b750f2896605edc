// A run's events as Server-Sent Events (issue 26 §2, first part): the stream
// is open while the run waits for an approval and carries what happens after
// the decision, in ledger order, ending with `end`; a reconnect with
// Last-Event-ID gets exactly the rest; a program reads it with an API key;
// bad input and strangers get clear errors.
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { Role } from "../lib/access/roles";
import { storageStateFor } from "./support";

type Frame = { id: number | null; event: string; data: string };

/** The SSE body as frames (comments and the retry hint left out). */
function frames(body: string): Frame[] {
  return body
    .split("\n\n")
    .map((block) => block.split("\n").filter((line) => line && !line.startsWith(":") && !line.startsWith("retry:")))
    .filter((lines) => lines.length > 0)
    .map((lines) => {
      const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? "";
      const id = field("id");
      return { id: id ? Number(id) : null, event: field("event"), data: field("data") };
    });
}

test("a run's events stream live as SSE, resume from Last-Event-ID, and end when the run does", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const as = (role: Role): Promise<APIRequestContext> => playwright.request.newContext({ baseURL, storageState: storageStateFor(role) });
  const [viewer, builder, approver] = await Promise.all([as("viewer"), as("builder"), as("approver")]);
  const amount = 5000 + Math.floor(Math.random() * 1000);
  const started = await builder.post("/api/runs", { data: { graph: "treasury", task: `tool ledger_transfer {"from_account":"savings","to_account":"operating","amount":${amount}}\nanswer: streamed ${amount}` } });
  expect(started.status(), await started.text()).toBe(201);
  const { runId } = (await started.json()) as { runId: string };
  let approvalId = "";
  await expect
    .poll(async () => {
      const { approvals } = (await (await approver.get("/api/approvals")).json()) as { approvals: { id: string; runId: string }[] };
      approvalId = approvals.find((a) => a.runId === runId)?.id ?? "";
      return approvalId;
    }, { timeout: 30_000 })
    .not.toBe("");

  // A viewer's browser opens the stream (EventSource) while the run waits: the approval request arrives live.
  const page = await browser.newPage({ storageState: storageStateFor("viewer") });
  await page.goto("/runs");
  await page.evaluate((id) => {
    const seen: { id: number | null; event: string; data: string }[] = [];
    (window as unknown as { seen: typeof seen }).seen = seen;
    const source = new EventSource(`/api/runs/${id}/stream`);
    const keep = (event: string) => (e: MessageEvent<string>) => seen.push({ id: e.lastEventId ? Number(e.lastEventId) : null, event, data: e.data });
    for (const type of ["run_started", "approval_requested", "approval_decided", "tool_call_started", "tool_call_completed", "run_completed"]) source.addEventListener(type, keep(type));
    source.addEventListener("end", (e) => {
      keep("end")(e as MessageEvent<string>);
      source.close();
    });
  }, runId);
  const seen = () => page.evaluate(() => (window as unknown as { seen: Frame[] }).seen.map((f) => f.event));
  await expect.poll(seen, { timeout: 15_000, message: "the waiting run's approval request reaches the open stream" }).toContain("approval_requested");
  expect(await seen(), "nothing after the request yet: the run waits").not.toContain("run_completed");
  const decided = await approver.post(`/api/runs/${runId}/approvals/${approvalId}`, { data: { approved: true } });
  expect(decided.status(), await decided.text()).toBe(200);
  await expect.poll(seen, { timeout: 30_000, message: "the decision's consequences arrive on the same stream, then end" }).toContain("end");
  const live = await page.evaluate(() => (window as unknown as { seen: Frame[] }).seen);
  expect(live.map((f) => f.event)).toEqual(expect.arrayContaining(["approval_requested", "approval_decided", "tool_call_completed", "run_completed", "end"]));
  await page.close();

  // The whole stream read at once, after the fact.
  const response = await viewer.get(`/api/runs/${runId}/stream`);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^text\/event-stream/);
  const all = frames(await response.text());
  const events = all.filter((f) => f.event !== "end");
  const end = all.at(-1);
  expect(end?.event, "the stream ends with end").toBe("end");
  expect(JSON.parse(end?.data ?? "{}")).toMatchObject({ status: "completed" });
  // What the browser heard live is the ledger's, in order.
  expect(live.filter((f) => f.event !== "end").map((f) => f.id)).toEqual(events.filter((f) => live.some((l) => l.id === f.id)).map((f) => f.id));

  // Ids are the ledger's seqs, in order, each event once; the same list the events route pages.
  const ledger = (await (await viewer.get(`/api/runs/${runId}/events?since=0&limit=2000`)).json()) as { events: { seq: number; type: string }[] };
  expect(events.map((f) => f.id)).toEqual(ledger.events.map((e) => e.seq));
  expect(events.map((f) => f.event)).toEqual(ledger.events.map((e) => e.type));
  expect(events.map((f) => f.event)).toEqual(expect.arrayContaining(["approval_requested", "run_completed"]));
  const completed = events.find((f) => f.event === "run_completed");
  expect(JSON.parse(completed?.data ?? "{}")).toMatchObject({ type: "run_completed", output: `streamed ${amount}` });

  // A reconnect names the last id it saw and gets exactly the rest.
  const middle = events[Math.floor(events.length / 2)]?.id ?? 0;
  const resumed = frames(await (await viewer.get(`/api/runs/${runId}/stream`, { headers: { "Last-Event-ID": String(middle) } })).text());
  expect(resumed.filter((f) => f.event !== "end").map((f) => f.id)).toEqual(events.filter((f) => (f.id ?? 0) > middle).map((f) => f.id));
  expect(resumed.at(-1)?.event).toBe("end");

  // A program reads the same stream with an API key.
  const created = await viewer.post("/api/api-keys", { data: { name: `stream-${amount}`, role: "viewer" } });
  expect(created.status(), await created.text()).toBe(201);
  const { token } = (await created.json()) as { token: string };
  const program = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const withKey = await program.get(`/api/runs/${runId}/stream?since=${middle}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(withKey.status()).toBe(200);
  expect(frames(await withKey.text()).filter((f) => f.event !== "end").map((f) => f.id)).toEqual(resumed.filter((f) => f.event !== "end").map((f) => f.id));

  // Clear errors: no session, an unknown run, a bad since.
  expect((await program.get(`/api/runs/${runId}/stream`)).status()).toBe(401);
  expect((await viewer.get(`/api/runs/treasurer-00000000-0000-0000-0000-000000000000/stream`)).status()).toBe(404);
  const bad = await viewer.get(`/api/runs/${runId}/stream?since=-1`);
  expect(bad.status()).toBe(422);
  expect(((await bad.json()) as { error: { issues: { path: string }[] } }).error.issues[0]?.path).toBe("since");
  await Promise.all([viewer.dispose(), builder.dispose(), approver.dispose(), program.dispose()]);
});
