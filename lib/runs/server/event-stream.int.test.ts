// The SSE stream of a run's ledger events, against a real database (SQLite and
// PostgreSQL): events already written, then one written while the stream is
// open, then `end` once the run is final; a resume after an id; an unknown run
// refused before any byte; a busy stream ended by its caller's re-check, saying
// why; and the per-user cap, released when a stream is cancelled.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { RateLimitedError } from "../../errors";
import { RunNotFound } from "../../engine/errors";
import { runEventStream, STREAMS_PER_USER } from "./event-stream";
import type { StreamCaller } from "./stream-guard";
import type { AccessEnd } from "../stream-end";

const providers = await testProviders();
const AT = "2026-01-01T00:00:00.000Z";

async function writeEvent(db: Db, runId: string, seq: number, type: string): Promise<void> {
  const data = JSON.stringify({ seq, at: AT, type, note: `event ${seq}` });
  await db.runEvent.create({ data: { runId, seq, type, at: new Date(AT), data, bytes: Buffer.byteLength(data) } });
}

/** Reads the stream until it closes (or `until` says stop), as text. */
async function readAll(stream: ReadableStream<Uint8Array>, until?: (text: string) => boolean): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    if (until?.(text)) {
      await reader.cancel();
      return text;
    }
  }
}

const ids = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));

for (const { provider, available, create } of providers) {
  describe.skipIf(!available)(`run event stream on ${provider}`, () => {
    let database: TestDatabase;
    let db: Db;

    beforeAll(async () => {
      database = await create();
      await applyMigrations(database.url);
      db = createDb(database.url);
      await db.run.create({ data: { id: "live-run", rootRunId: "live-run", agentName: "streamer", task: "stream", status: "thinking", lastEventSeq: 2, startedAt: new Date(AT) } });
      await writeEvent(db, "live-run", 1, "run_started");
      await writeEvent(db, "live-run", 2, "llm_call_started");
      await db.run.create({ data: { id: "busy-run", rootRunId: "busy-run", agentName: "streamer", task: "busy", status: "thinking", lastEventSeq: 0, startedAt: new Date(AT) } });
    });

    afterAll(async () => {
      await db?.$disconnect();
      await database?.drop();
    });

    it("sends what is written, then what is written while it is open, then end once the run is final", async () => {
      const stream = await runEventStream(db, { runId: "live-run", since: 0, userId: "u-live", signal: new AbortController().signal });
      const reading = readAll(stream);
      // Written while the stream is open (it polls the ledger): the run answers.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await writeEvent(db, "live-run", 3, "run_completed");
      await db.run.update({ where: { id: "live-run" }, data: { status: "completed", lastEventSeq: 3 } });
      const text = await reading;
      expect(ids(text)).toEqual([1, 2, 3]);
      expect(text).toContain("event: run_completed\n");
      expect(text.trimEnd().endsWith('event: end\ndata: {"reason":"run_finished","status":"completed","lastEventSeq":3}')).toBe(true);
    });

    it("resumes after an id, and refuses an unknown run before sending anything", async () => {
      const rest = await readAll(await runEventStream(db, { runId: "live-run", since: 2, userId: "u-resume", signal: new AbortController().signal }));
      expect(ids(rest)).toEqual([3]);
      await expect(runEventStream(db, { runId: "nobody", since: 0, userId: "u-resume", signal: new AbortController().signal })).rejects.toBeInstanceOf(RunNotFound);
    });

    it("ends within its re-check period once the caller may no longer read, however busy, and says why (a revoked key, a session signed out elsewhere)", async () => {
      let access: AccessEnd | null = null;
      let checks = 0;
      const caller: StreamCaller = {
        check: async () => {
          checks++;
          return access;
        },
      };
      const stream = await runEventStream(db, { runId: "busy-run", since: 0, userId: "u-revoked", signal: new AbortController().signal, caller, recheckMs: 200 });
      const reading = readAll(stream);
      // Busier than the re-check: an event every 50 ms, so the stream is never silent.
      let seq = 0;
      const writing = setInterval(() => {
        const at = ++seq;
        void writeEvent(db, "busy-run", at, "iteration_started").then(() => db.run.update({ where: { id: "busy-run" }, data: { lastEventSeq: at } })).then(() => undefined, () => undefined);
      }, 50);
      try {
        await new Promise((resolve) => setTimeout(resolve, 700));
        expect(checks, "checked on its period while busy").toBeGreaterThanOrEqual(2);
        const revokedAt = Date.now();
        access = { reason: "key_revoked", message: "API key refused: this key was revoked" };
        const text = await reading;
        expect(Date.now() - revokedAt, "ended within the period (and a read)").toBeLessThan(1_000);
        expect(ids(text).length, "events went out while allowed").toBeGreaterThan(3);
        expect(text.trimEnd().endsWith('event: end\ndata: {"reason":"key_revoked","message":"API key refused: this key was revoked"}')).toBe(true);
      } finally {
        clearInterval(writing);
      }
    });

    it(`caps a user's open streams at ${STREAMS_PER_USER}, and a cancelled stream frees its place`, async () => {
      await db.run.create({ data: { id: "idle-run", rootRunId: "idle-run", agentName: "streamer", task: "wait", status: "awaiting_approval", lastEventSeq: 0, startedAt: new Date(AT) } });
      const open = () => runEventStream(db, { runId: "idle-run", since: 0, userId: "u-cap", signal: new AbortController().signal });
      const streams = [];
      for (let i = 0; i < STREAMS_PER_USER; i++) streams.push(await open());
      await expect(open()).rejects.toBeInstanceOf(RateLimitedError);
      // Another user is not held back by this one.
      const other = await runEventStream(db, { runId: "idle-run", since: 0, userId: "u-other", signal: new AbortController().signal });
      await other.cancel();
      await streams.pop()?.cancel();
      const again = await open();
      await Promise.all([again, ...streams].map((s) => s.cancel()));
      // All released: a full set opens again.
      const full = [];
      for (let i = 0; i < STREAMS_PER_USER; i++) full.push(await open());
      await Promise.all(full.map((s) => s.cancel()));
    });
  });
}
