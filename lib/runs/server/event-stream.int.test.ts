// The SSE stream of a run's ledger events, against a real database (SQLite and
// PostgreSQL): events already written, then one written while the stream is
// open, then `end` once the run is final; a resume after an id; an unknown run
// refused before any byte; and the per-user cap, released when a stream is cancelled.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../db/prisma";
import { applyMigrations } from "../../../scripts/db/migrate";
import { testProviders, type TestDatabase } from "../../../scripts/test-support/databases";
import { RateLimitedError } from "../../errors";
import { RunNotFound } from "../../engine/errors";
import { runEventStream, STREAMS_PER_USER } from "./event-stream";

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
      await db.run.create({ data: { id: "idle-run-2", rootRunId: "idle-run-2", agentName: "streamer", task: "wait", status: "awaiting_approval", lastEventSeq: 0, startedAt: new Date(AT) } });
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
      expect(text.trimEnd().endsWith('event: end\ndata: {"status":"completed","lastEventSeq":3}')).toBe(true);
    });

    it("resumes after an id, and refuses an unknown run before sending anything", async () => {
      const rest = await readAll(await runEventStream(db, { runId: "live-run", since: 2, userId: "u-resume", signal: new AbortController().signal }));
      expect(ids(rest)).toEqual([3]);
      await expect(runEventStream(db, { runId: "nobody", since: 0, userId: "u-resume", signal: new AbortController().signal })).rejects.toBeInstanceOf(RunNotFound);
    });

    it("ends at a heartbeat once the caller may no longer read (a revoked key, a session signed out elsewhere)", async () => {
      let allowed = true;
      const stream = await runEventStream(db, { runId: "idle-run-2", since: 0, userId: "u-revoked", signal: new AbortController().signal, stillAllowed: async () => allowed, heartbeatMs: 100 });
      const reading = readAll(stream);
      await new Promise((resolve) => setTimeout(resolve, 350));
      allowed = false;
      const text = await reading;
      expect(text, "heartbeats went out while allowed").toContain(": keep-alive");
      expect(text).not.toContain("event: end");
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
