// Issue 36 §3: monitors are bounded and their names reach Slack as text. A
// builder with a key could create monitors without end (each one evaluated on
// every tick), and a monitor named `<!channel> <http://evil.example|…>` fired
// an alert whose webhook `text` Slack read as markup: a ping to the whole
// channel and a link under made-up words. Through the real routes and the
// worker's own monitor activities, against a local webhook receiver.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorOf, keyRequest, routeParams, startApiCallers, type ApiCallers, type KeyHolder } from "@/scripts/test-support/api-callers";
import { MONITOR_LIMITS } from "@/lib/monitors/schemas";
import type { AlertNotification } from "@/lib/monitors/notification";

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, has: () => false, delete: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

let callers: ApiCallers;
let monitorsRoute: typeof import("@/app/api/monitors/route");
let server: Server | undefined;
const noParams = routeParams({});

beforeAll(async () => {
  callers = await startApiCallers();
  monitorsRoute = await import("@/app/api/monitors/route");
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await callers?.stop();
});

const condition = { series: "approvals_oldest_wait", comparator: "gt", threshold: 30 * 60_000, windowMinutes: 60 };

function createMonitor(holder: KeyHolder, name: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return monitorsRoute.POST(keyRequest(holder.token, "/api/monitors", { method: "POST", body: { name, ...condition, ...extra } }), noParams);
}

/** Monitors someone already keeps, written straight to the table (disabled: no tick evaluates them). */
async function existingMonitors(ownerId: string, count: number, prefix: string): Promise<void> {
  await callers.db.monitor.createMany({
    data: Array.from({ length: count }, (_, i) => ({ id: `mon_${prefix}${String(i).padStart(6, "0")}`, name: `${prefix} ${i}`, ...condition, enabled: false, createdById: ownerId, updatedById: ownerId })),
  });
}

describe("monitors are bounded", () => {
  it(`a builder holding ${MONITOR_LIMITS.perUser} monitors is refused another with 409 saying why; another builder still creates theirs`, async () => {
    const hoarder = await callers.holder("builder", "hoarder");
    await existingMonitors(hoarder.id, MONITOR_LIMITS.perUser - 1, "hoard");
    const last = await createMonitor(hoarder, "hoard last allowed", { enabled: false });
    expect(last.status, await last.clone().text()).toBe(201);
    const over = await createMonitor(hoarder, "hoard one too many", { enabled: false });
    expect(over.status).toBe(409);
    expect((await errorOf(over)).message).toBe(`You already have ${MONITOR_LIMITS.perUser} monitors, the most one person may create (${MONITOR_LIMITS.perUser}); delete one you no longer need first`);
    expect(await callers.db.monitor.count({ where: { createdById: hoarder.id } })).toBe(MONITOR_LIMITS.perUser);
    const other = await callers.holder("builder", "neighbour");
    const theirs = await createMonitor(other, "neighbour's monitor", { enabled: false });
    expect(theirs.status, "the limit is per person").toBe(201);
  });

  it(`a workspace holding ${MONITOR_LIMITS.perWorkspace} monitors refuses another with 409, whoever asks`, async () => {
    const admin = await callers.holder("admin", "filler");
    const already = await callers.db.monitor.count();
    // Spread over owners below their own limit, so only the workspace's is reached.
    for (let owner = 0, left = MONITOR_LIMITS.perWorkspace - already; left > 0; owner++) {
      const batch = Math.min(left, MONITOR_LIMITS.perUser - 1);
      await existingMonitors(`filler-owner-${owner}`, batch, `fill${owner}x`);
      left -= batch;
    }
    expect(await callers.db.monitor.count()).toBe(MONITOR_LIMITS.perWorkspace);
    const over = await createMonitor(admin, "one past the workspace", { enabled: false });
    expect(over.status).toBe(409);
    expect((await errorOf(over)).message).toBe(`The workspace already has ${MONITOR_LIMITS.perWorkspace} monitors, the most it may keep (${MONITOR_LIMITS.perWorkspace}); delete one no longer needed first`);
    expect(await callers.db.monitor.count()).toBe(MONITOR_LIMITS.perWorkspace);
    // Room for the next test's monitor.
    await callers.db.monitor.deleteMany({ where: { name: { startsWith: "fill" } } });
  });
});

describe("a monitor's name reaches Slack as text", () => {
  it("an alert of a monitor named <!channel> <http://evil.example|…> is delivered with & < > escaped as Slack documents", async () => {
    const builder = await callers.holder("builder", "prankster");
    const name = "<!channel> <http://evil.example|Reset your password> & more";
    const created = await createMonitor(builder, name);
    expect(created.status, await created.clone().text()).toBe(201);

    const deliveries: string[] = [];
    server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        deliveries.push(body);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const requestedAt = new Date(Date.now() - 45 * 60_000);
    await callers.db.approvalRecord.create({
      data: { id: "ap-waiting", runId: "run-w", rootRunId: "run-w", agentName: "main", toolName: "ledger_transfer", toolCallId: "call-w", arguments: "{}", requestedAt, expiresAt: new Date(requestedAt.getTime() + 86_400_000) },
    });
    const { createMonitorActivities } = await import("@/worker/activities/monitors");
    const activities = createMonitorActivities({ db: callers.db, webhook: { url: `http://${host}/hook`, secret: "a-webhook-secret-of-some-length", allowHosts: [host] } });
    const tick = await activities.evaluateMonitors();
    expect(tick.fired).toBe(1);
    expect(await activities.deliverAlertNotification(tick.deliveries[0]!)).toBe("sent");

    const body = JSON.parse(deliveries[0]!) as AlertNotification;
    expect(body.text).toContain("Alert: &lt;!channel&gt; &lt;http://evil.example|Reset your password&gt; &amp; more is firing");
    expect(body.text, "no character Slack reads as markup is left").not.toMatch(/[<>]/);
    expect(body.alert.monitorName, "the structured field keeps the name as typed").toBe(name);
  });
});
