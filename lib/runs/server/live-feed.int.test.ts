// The live lists' feeds against a real database (SQLite and PostgreSQL): a run
// started and moved while the runs feed is open arrives as `run` events; an
// approval asked and decided arrives on the approvals feed (and not on the runs
// feed); a feed resumed from a cursor replays what changed after it; the
// per-user cap is shared with the run streams and sign-out ends a user's feeds;
// every open feed shares one poller; a busy feed whose caller may no longer read
// ends within its re-check period with `end` naming why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { RateLimitedError } from "../../errors";
import { liveFeedStream } from "./live-feed";
import { liveChanges, LOOKBACK_MS } from "./live-changes";
import { recheckUserStreams, openStreamCount, STREAMS_PER_USER } from "./stream-limits";
import type { LiveTopic } from "../live-feed";
import type { StreamCaller } from "./stream-guard";
import type { AccessEnd } from "../stream-end";

const providers = await testProviders();

interface Frame {
  id: number | null;
  event: string;
  data: Record<string, unknown>;
}

/** Reads a feed in the background; `until` waits for a frame matching the predicate (or fails after 5 s). */
function follow(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const frames: Frame[] = [];
  let buffer = "";
  let ended = false;
  const done = (async () => {
    for (;;) {
      const { done: finished, value } = await reader.read();
      if (finished) break;
      buffer += decoder.decode(value, { stream: true });
      for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const field = (name: string) => block.match(new RegExp(`^${name}: (.*)$`, "m"))?.[1];
        const event = field("event");
        if (event) frames.push({ id: field("id") ? Number(field("id")) : null, event, data: JSON.parse(field("data") ?? "{}") as Record<string, unknown> });
      }
    }
    ended = true;
  })();
  return {
    frames,
    get ended() {
      return ended;
    },
    done,
    async until(what: string, match: (f: Frame) => boolean): Promise<Frame> {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const found = frames.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no ${what} within 5 s; got ${JSON.stringify(frames)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    cancel: () => reader.cancel(),
  };
}

const open = (db: Db, topic: LiveTopic, userId: string, since: number | null = null) => follow(liveFeedStream(db, { topic, since, userId, signal: new AbortController().signal }));

for (const { provider, available, create } of providers) {
  describe.skipIf(!available)(`live lists' feeds on ${provider}`, () => {
    let database: TestDatabase;
    let db: Db;

    beforeAll(async () => {
      database = await create();
      await applyMigrations(database.url);
      db = createDb(database.url);
    });

    afterAll(async () => {
      await db?.$disconnect();
      await database?.drop();
    });

    it("announces a run started and moved while the runs feed is open, newest state last", async () => {
      const feed = open(db, "runs", "u-runs");
      await feed.until("ready", (f) => f.event === "ready");
      await db.run.create({ data: { id: "feed-run", rootRunId: "feed-run", agentName: "lister", task: "list me", status: "pending" } });
      const fresh = await feed.until("the new run", (f) => f.event === "run" && f.data.runId === "feed-run");
      expect(fresh.data.started, "a run just started carries what the list shows of it").toMatchObject({ agentName: "lister", task: "list me", graphName: null });
      await db.run.update({ where: { id: "feed-run" }, data: { status: "completed", iteration: 2, lastEventSeq: 5, endedAt: new Date() } });
      const done = await feed.until("its completion", (f) => f.event === "run" && f.data.runId === "feed-run" && f.data.status === "completed");
      expect(done.data).toMatchObject({ rootRunId: "feed-run", parentRunId: null, iteration: 2, lastEventSeq: 5, pendingApprovals: 0 });
      expect(done.data.started, "only a run without events carries its start").toBeUndefined();
      expect(done.id, "the cursor is the row's write time").toBe(Date.parse(String(done.data.updatedAt)));
      // Re-reading the lookback window announces nothing twice.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(feed.frames.filter((f) => f.event === "run" && f.data.runId === "feed-run").map((f) => f.data.status)).toEqual(["pending", "completed"]);
      await feed.cancel();
    });

    it("announces an approval asked and decided on the approvals feed, and the run's pending count as it moves", async () => {
      const inbox = open(db, "approvals", "u-inbox");
      const runs = open(db, "runs", "u-inbox");
      await Promise.all([inbox.until("ready", (f) => f.event === "ready"), runs.until("ready", (f) => f.event === "ready")]);
      const now = new Date();
      // The ledger writes the record and the run's pending count in one transaction: here the record first.
      await db.approvalRecord.create({
        data: { id: "ask-1", runId: "asking-run", rootRunId: "asking-run", agentName: "banker", toolName: "transfer", toolCallId: "call-1", arguments: "{}", requestedAt: now, expiresAt: new Date(now.getTime() + 60_000) },
      });
      await db.run.create({ data: { id: "asking-run", rootRunId: "asking-run", agentName: "banker", task: "move money", status: "awaiting_approval", pendingApprovals: 1 } });
      const asked = await inbox.until("the ask", (f) => f.event === "approval" && f.data.approvalId === "ask-1");
      expect(asked.data).toMatchObject({ runId: "asking-run", toolName: "transfer", status: "pending", decidedBy: null });
      await db.approvalRecord.update({ where: { id: "ask-1" }, data: { status: "approved", decidedAt: new Date(), decidedByEmail: "approver@zap.local" } });
      const decided = await inbox.until("the decision", (f) => f.event === "approval" && f.data.status === "approved");
      expect(decided.data).toMatchObject({ approvalId: "ask-1", decidedBy: "approver@zap.local" });
      await db.run.update({ where: { id: "asking-run" }, data: { pendingApprovals: 0, status: "thinking" } });
      await inbox.until("the count dropping", (f) => f.event === "pending" && f.data.runId === "asking-run" && f.data.pendingApprovals === 0);
      expect(runs.frames.some((f) => f.event === "approval" || f.event === "pending"), "the runs feed carries runs only").toBe(false);
      expect(inbox.frames.some((f) => f.event === "run"), "the approvals feed carries approvals only").toBe(false);
      await Promise.all([inbox.cancel(), runs.cancel()]);
    });

    it("replays what changed after a cursor to a feed that resumes, without what came before", async () => {
      const cursor = Date.now();
      // Written before the cursor's lookback (LOOKBACK_MS), so out of the replay.
      await db.run.create({ data: { id: "before-run", rootRunId: "before-run", agentName: "lister", task: "old", status: "completed", updatedAt: new Date(cursor - LOOKBACK_MS - 1_000) } });
      await db.run.create({ data: { id: "missed-run", rootRunId: "missed-run", agentName: "lister", task: "missed", status: "thinking" } });
      const resumed = open(db, "runs", "u-resume", cursor);
      await resumed.until("the run missed while away", (f) => f.event === "run" && f.data.runId === "missed-run");
      expect(resumed.frames.some((f) => f.data.runId === "before-run"), "a change older than the cursor's lookback").toBe(false);
      await resumed.cancel();
    });

    it("ends a busy feed within its re-check period once the caller may no longer read, with end naming why", async () => {
      let access: AccessEnd | null = null;
      const caller: StreamCaller = { check: async () => access };
      const feed = follow(liveFeedStream(db, { topic: "runs", since: null, userId: "u-ended", signal: new AbortController().signal, caller, recheckMs: 200 }));
      await feed.until("ready", (f) => f.event === "ready");
      await db.run.create({ data: { id: "busy-feed-run", rootRunId: "busy-feed-run", agentName: "lister", task: "busy", status: "thinking" } });
      // Busier than the re-check: the run moves every 50 ms, so the feed is never silent.
      let iteration = 0;
      const writing = setInterval(() => void db.run.update({ where: { id: "busy-feed-run" }, data: { iteration: ++iteration } }).then(() => undefined, () => undefined), 50);
      try {
        await feed.until("changes while allowed", (f) => f.event === "run" && f.data.runId === "busy-feed-run" && Number(f.data.iteration) >= 3);
        const revokedAt = Date.now();
        access = { reason: "user_disabled", message: "Your account was disabled" };
        await feed.done;
        expect(Date.now() - revokedAt, "ended within the period").toBeLessThan(1_000);
      } finally {
        clearInterval(writing);
      }
      expect(feed.frames.at(-1)).toEqual({ id: null, event: "end", data: { reason: "user_disabled", message: "Your account was disabled" } });
      expect(openStreamCount("u-ended")).toBe(0);
    });

    it(`counts feeds against the ${STREAMS_PER_USER} streams a user may hold, shares one poller, and ends a user's feeds at sign-out`, async () => {
      const feeds = Array.from({ length: STREAMS_PER_USER }, (_, i) => open(db, i % 2 ? "runs" : "approvals", "u-cap"));
      await Promise.all(feeds.map((f) => f.until("ready", (frame) => frame.event === "ready")));
      expect(openStreamCount("u-cap")).toBe(STREAMS_PER_USER);
      expect(() => liveFeedStream(db, { topic: "runs", since: null, userId: "u-cap", signal: new AbortController().signal })).toThrow(RateLimitedError);
      expect(liveChanges(db).listenerCount, "one poller for every open feed").toBe(STREAMS_PER_USER);
      // Another user is not held back by this one.
      const other = open(db, "runs", "u-cap-other");
      await other.until("ready", (f) => f.event === "ready");
      expect(recheckUserStreams("u-cap")).toBe(STREAMS_PER_USER);
      await Promise.all(feeds.map((f) => f.done));
      expect(feeds.every((f) => f.ended), "every feed of the signed-out user ended").toBe(true);
      expect(openStreamCount("u-cap")).toBe(0);
      expect(other.ended, "the other user's feed goes on").toBe(false);
      await other.cancel();
      expect(liveChanges(db).listenerCount).toBe(0);
    });
  });
}
