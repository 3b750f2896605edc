// The replay soak's driver: starts the kinds of soak-kinds.ts and
// soak-taped-kinds.ts a bounded number at a time, and meanwhile does what users
// and the web server do to runs, at moments drawn from the seed — readers that
// send the web server's reads (the run summary query, the pending-approvals
// and conversations queries, the inbox, the runs list) to random runs in flight;
// each run watched as waitForRun does; cancels right after a summary query;
// follow-ups once a run answered; approvals and budget asks approved, rejected
// or left waiting by an approver as the inbox does.
import { TERMINAL_STATUSES } from "../../lib/contract/types";
import { BUDGET_APPROVAL_TOOL } from "../../lib/contract/budget-approval";
import { conversationsQuery, pendingApprovalsQuery, summaryQuery } from "../../lib/contract/definitions";
import type { Decision, SoakContext, SoakKind, Started } from "./soak-kinds";
import type { Rng } from "./soak-random";

export interface SoakStats {
  startedByKind: Record<string, number>;
  startFailures: string[];
  cancels: number;
  followUps: number;
  decisions: Record<Decision | "budget approved" | "budget rejected", number>;
  reads: Record<string, number>;
  readErrors: number;
  /** Runs (or experiments, playground calls) not settled when the drive ended. */
  unsettled: string[];
}

export interface SoakDriverOptions {
  ctx: SoakContext;
  rng: Rng;
  kinds: readonly SoakKind[];
  /** Root runs (and experiments, playground calls) in flight at most at once. */
  maxInFlight: number;
  /** Clients sending reads in a loop. */
  readers: number;
  approver: { id: string; email: string; role: string };
}

const READ_DEADLINE_MS = 3_000;
/** A cancel, follow-up or decision that has not answered by then is given up (counted), so no call can hold the drive. */
const ACT_DEADLINE_MS = 10_000;
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface SoakDriver {
  stats: SoakStats;
  started: Started[];
  /** Resolves once `count` starts were made (the test kills the worker at such points). */
  whenLaunched(count: number): Promise<void>;
  /** How many of the started runs are not settled yet. */
  inFlight(): number;
  total: number;
  /** Starts everything and waits until each has settled or had `lifeMs` since its start; then the readers stop. */
  run(lifeMs: number): Promise<void>;
}

export function createSoakDriver({ ctx, rng, kinds, maxInFlight, readers, approver }: SoakDriverOptions): SoakDriver {
  const { h } = ctx;
  const jobs = kinds.flatMap((kind) => Array.from({ length: kind.count }, (_, n) => ({ kind, n })));
  // Shuffled, so every kind is in flight beside every other (and beside each kill).
  for (let i = jobs.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [jobs[i], jobs[j]] = [jobs[j] as (typeof jobs)[number], jobs[i] as (typeof jobs)[number]];
  }
  const stats: SoakStats = {
    startedByKind: {},
    startFailures: [],
    cancels: 0,
    followUps: 0,
    decisions: { approve: 0, reject: 0, leave: 0, "budget approved": 0, "budget rejected": 0 },
    reads: {},
    readErrors: 0,
    unsettled: [],
  };
  const started: Started[] = [];
  const planOf = new Map<string, Started>();
  /** Jobs between their start and their settling (a fork's start waits for its origin: it counts). */
  let running = 0;
  let slotFreed: (() => void) | null = null;
  let launched = 0;
  let stopping = false;
  const waiters: { count: number; resolve: () => void }[] = [];
  /** How long the driver watches one start before it gives up on it (a run stuck on a failing workflow task must not hold its slot for ever). */
  let lifeMs = Infinity;

  const read = <T>(name: string, fn: () => Promise<T>): Promise<T | undefined> => {
    stats.reads[name] = (stats.reads[name] ?? 0) + 1;
    return h.client.withDeadline(Date.now() + READ_DEADLINE_MS, fn).catch(() => {
      stats.readErrors++;
      return undefined;
    });
  };
  /**
   * The workflow's own summary query. The web server's read (engine.getRun) was this query until it moved to the
   * ledger; the soak keeps asking the workflow, because a query met by a step in flight is what the defect needed.
   */
  const summary = (runId: string) => read("summary query", () => h.client.workflow.getHandle(runId).query(summaryQuery));
  /** An action on a run, bounded; false when it failed or ran out of time (a cancelled run refuses a decision: expected). */
  const act = (fn: () => Promise<unknown>): Promise<boolean> =>
    h.client.withDeadline(Date.now() + ACT_DEADLINE_MS, fn).then(
      () => true,
      () => false,
    );

  /** Starts whose planned cancel has been sent (until then, a run that looks finished is still watched). */
  const cancelled = new Set<Started>();

  /** Cancels as a user does after looking: the summary query first, the cancel right behind it. */
  async function cancel(s: Started): Promise<void> {
    if (s.runId) {
      await summary(s.runId);
      await act(() => h.engine.cancelRun(s.runId as string));
    } else if (s.cancel) await act(s.cancel);
    stats.cancels++;
  }

  /** Watches one run as waitForRun does until it settled: cancelled or failed, answered (and followed up), or left waiting for a decision. */
  async function watch(s: Started, runRng: Rng, until: number): Promise<void> {
    const runId = s.runId as string;
    let followedUp = s.plan.followUp === null;
    for (;;) {
      if (Date.now() > until) return void stats.unsettled.push(`${s.kind} ${runId}`);
      // As waitForRun and the run page poll: the web server's read of the run.
      const status = (await read("run read (web)", () => h.engine.getRun(runId)))?.status;
      const cancelPending = s.plan.cancelAfterMs !== null && !cancelled.has(s);
      if (status && TERMINAL_STATUSES.includes(status) && !cancelPending) {
        if (status !== "completed" || followedUp) return;
        followedUp = true;
        stats.followUps++;
        await act(() => h.engine.sendMessage(runId, s.plan.followUp as string, undefined, { id: ctx.builder.id, email: ctx.builder.email }));
      } else if (status === "awaiting_approval" && s.plan.decision === "leave" && !cancelPending) return;
      await pause(runRng.int(400, 1_200));
    }
  }

  async function life(s: Started, runRng: Rng): Promise<void> {
    const key = s.runId ?? s.workflowId ?? s.kind;
    const until = Date.now() + lifeMs;
    const cancelling =
      s.plan.cancelAfterMs === null
        ? Promise.resolve()
        : pause(s.plan.cancelAfterMs).then(async () => {
            await cancel(s);
            cancelled.add(s);
          });
    if (s.runId) await watch(s, runRng, until);
    else {
      let settled = false;
      await Promise.race([s.settled?.then(() => (settled = true)), pause(lifeMs)]);
      if (!settled) stats.unsettled.push(`${s.kind} ${key}`);
    }
    await cancelling;
  }

  async function launch(job: (typeof jobs)[number]): Promise<void> {
    const runRng = rng.fork(launched);
    running++;
    try {
      const made = await job.kind.start(ctx, runRng, job.n);
      for (const s of made) {
        started.push(s);
        if (s.runId) planOf.set(s.runId, s);
        stats.startedByKind[s.kind] = (stats.startedByKind[s.kind] ?? 0) + 1;
      }
      await Promise.all(made.map((s, i) => life(s, runRng.fork(i))));
    } catch (error) {
      stats.startFailures.push(`${job.kind.name} #${job.n}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      running--;
      slotFreed?.();
    }
  }

  /** The runs the readers pick from, listed once a second for all of them (a list per reader and read would load the database more than the reads do). */
  const listed = { working: [] as string[], answered: [] as string[], at: 0 };
  async function runsToRead(): Promise<typeof listed> {
    if (Date.now() - listed.at < 1_000) return listed;
    listed.at = Date.now();
    const rows = await h.db.run.findMany({ where: { status: { notIn: ["failed", "cancelled"] } }, select: { id: true, status: true }, orderBy: { startedAt: "desc" }, take: 300 });
    listed.working = rows.filter((r) => r.status !== "completed").map((r) => r.id);
    listed.answered = rows.filter((r) => r.status === "completed").map((r) => r.id);
    return listed;
  }

  /**
   * Random reads of runs (their sub-runs, nodes and units too: the ledger lists them), as the web's pages and
   * clients send them: mostly runs at work (where a read meets a step in flight), some that answered.
   */
  async function reader(readerRng: Rng): Promise<void> {
    while (!stopping) {
      const { working, answered } = await runsToRead();
      const pool = working.length && (readerRng.chance(0.8) || !answered.length) ? working : answered;
      const runId = pool.length ? readerRng.pick(pool) : null;
      const what = readerRng.next();
      // The workflow's queries, and the web server's reads (which query the workflow, or read the ledger, as the engine of the day does).
      const handle = runId ? h.client.workflow.getHandle(runId) : null;
      if (!runId || !handle || what < 0.04) await read("runs list (web)", () => h.engine.listRuns({ limit: 50 }));
      else if (what < 0.5) await summary(runId);
      else if (what < 0.62) await read("run read (web)", () => h.engine.getRun(runId));
      else if (what < 0.72) await read("pending approvals query", () => handle.query(pendingApprovalsQuery));
      else if (what < 0.8) await read("pending approvals (web)", () => h.engine.getPendingApprovals(runId));
      else if (what < 0.86) await read("conversations query", () => handle.query(conversationsQuery));
      else if (what < 0.92) await read("conversations (web)", () => h.engine.getConversations(runId));
      else await read("inbox (web)", () => h.engine.listPendingApprovals());
      // Mostly back to back (a tight loop of reads is what met the local activities), now and then a breath.
      if (readerRng.chance(0.2)) await pause(readerRng.int(1, 40));
    }
  }

  /**
   * The approver at the inbox: every pending approval decided as its run's plan says, after a random wait.
   * Found in the ledger's approval records (what the inbox falls back to when a run does not answer its query
   * at once); the inbox itself is among the readers' reads. The decision is the run's update, as the inbox's.
   */
  async function approverAtInbox(decideRng: Rng): Promise<void> {
    const seen = new Set<string>();
    // Decided side by side: an update that waits for a busy run must not hold the others back.
    const deciding: Promise<void>[] = [];
    const decide = async (approval: { id: string; runId: string; toolName: string }, decision: "approve" | "reject", delayMs: number) => {
      const budget = approval.toolName === BUDGET_APPROVAL_TOOL;
      const approved = decision === "approve";
      await pause(delayMs);
      const decided = await act(() =>
        h.engine.decideApproval(approval.runId, { approvalId: approval.id, approved, reason: "soak", decidedBy: approver, ...(budget && approved ? { editedArguments: { tokens: 5000 } } : {}) }),
      );
      if (decided) stats.decisions[budget ? (approved ? "budget approved" : "budget rejected") : decision]++;
    };
    while (!stopping) {
      const pending = await h.db.approvalRecord.findMany({ where: { status: "pending" }, select: { id: true, runId: true, rootRunId: true, toolName: true }, orderBy: { requestedAt: "asc" } });
      for (const approval of pending) {
        if (seen.has(approval.id)) continue;
        seen.add(approval.id);
        const plan = planOf.get(approval.rootRunId) ?? planOf.get(approval.runId);
        const decision: Decision = plan?.plan.decision ?? "approve";
        if (decision === "leave") stats.decisions.leave++;
        else deciding.push(decide(approval, decision, decideRng.int(0, 500)));
      }
      await pause(decideRng.int(100, 300));
    }
    await Promise.all(deciding);
  }

  return {
    stats,
    started,
    total: jobs.length,
    inFlight: () => running,
    whenLaunched(count) {
      if (launched >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async run(boundMs) {
      lifeMs = boundMs;
      const began = Date.now();
      // A line every 15 s: a soak that stalls shows where (and the log of a timed-out run says how far it got).
      const progress = setInterval(() => {
        console.log(`replay soak: ${Math.round((Date.now() - began) / 1000)} s: ${launched}/${jobs.length} started, ${running} in flight, ${stats.cancels} cancels, ${stats.followUps} follow-ups, ${Object.values(stats.reads).reduce((a, b) => a + b, 0)} reads (${stats.readErrors} failed)`);
      }, 15_000);
      const helpers = [...Array.from({ length: readers }, (_, i) => reader(rng.fork(10_000 + i))), approverAtInbox(rng.fork(20_000))];
      const lives: Promise<void>[] = [];
      for (const job of jobs) {
        // At most maxInFlight at once: wait for one to settle (each is bounded by lifeMs).
        while (running >= maxInFlight) await new Promise<void>((resolve) => (slotFreed = resolve));
        lives.push(launch(job));
        launched++;
        for (const w of waiters.filter((w) => launched >= w.count)) w.resolve();
        // Starts spread out a little, as users' starts are.
        await pause(rng.int(0, 60));
      }
      await Promise.all(lives);
      stopping = true;
      await Promise.all(helpers);
      clearInterval(progress);
    },
  };
}
